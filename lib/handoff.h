/*
 * handoff.h - a server waiting at the barrier gives its core to a late
 * server that is off its own (handoff.c).
 *
 * Who writes what: each server's cpu, under handoff.c's lock, by the
 * server that trades (server.c sets it before the threads start); its
 * cpu_clock, on its own thread before the threads are all started;
 * fi_lib.handoff, by the main thread between runs.  A waiter's watch is
 * its own.
 */
#ifndef FI_HANDOFF_H
#define FI_HANDOFF_H

#include "base.h"

struct fi_server;

/* What a waiter saw of the late server it watches. */
struct fi_handoff_watch {
    int late;             /* the server watched, or -1: none yet */
    unsigned long since;  /* when the wait, then the watch, began (fi_clock_ns); 0: not yet */
    unsigned long cpu_ns; /* the late server's CPU time then */
};

static inline void fi_handoff_watch_init(struct fi_handoff_watch *w)
{
    w->late = -1;
    w->since = 0;
}

/* Server me, waiting at the barrier in its round `round` (fi_lib.handoff
 * set): once it has waited FI_HANDOFF_NS, watch a server that has not
 * arrived, and trade cores with one that stayed off its own for
 * FI_HANDOFF_NS more. */
FI_HIDDEN void fi_handoff_look(struct fi_server *me, AO_t round, struct fi_handoff_watch *w);

FI_HIDDEN extern const struct fi_mechanism fi_handoff_mechanism;

#endif /* FI_HANDOFF_H */
