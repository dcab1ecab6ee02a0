/*
 * env.h - the environment variables, read in one place (env.c) by
 * f_initialize, which hands them to each mechanism's alloc hook.
 */
#ifndef FI_ENV_H
#define FI_ENV_H

#include "base.h"

struct fi_env {
    int servers;   /* 0: unset */
    long prune;
    int stats;
    int bind;      /* FILAMENTS_BIND: 1 one CPU per server, 0 none, FI_BIND_AUTO (unset):
                      1 where the servers are as many as the allowed CPUs (server.c) */
    long deque_slots;  /* FILAMENTS_DEQUE, or FI_DEQUE_SLOTS */
    const char *trace_path;  /* FILAMENTS_TRACE, or NULL: no trace (the environment's string) */
    long trace_events;       /* FILAMENTS_TRACE_EVENTS, or FI_TRACE_EVENTS */
    long rank;               /* the MPI launcher's rank of this process, or -1 */
    int adapt;               /* FILAMENTS_ADAPT: which iterative filaments may move (F_ADAPT_*) */
    /* For tests only, to reach the rare paths: FILAMENTS_TEST_CHUNK, or
     * FI_CHUNK_MIN and FI_CHUNK_MAX; FILAMENTS_TEST_FANIN, or FI_BARRIER_FANIN;
     * FILAMENTS_TEST_MOVES, or 0. */
    long chunk_min, chunk_max;
    int fanin;
    int test_moves;
};
#define FI_BIND_AUTO (-1)
FI_HIDDEN FI_MUST_CHECK int fi_env_read(struct fi_env *env);

#endif /* FI_ENV_H */
