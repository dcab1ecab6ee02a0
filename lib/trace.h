/*
 * trace.h - the schedule trace (trace.c): spans of the rare events of a
 * run, recorded per track into a buffer that one thread alone writes, and
 * written as one JSON file (Chrome Trace Event Format) at f_trace_stop or
 * f_finalize.  doc/design.md, "The schedule trace", has who records what.
 *
 * Who writes what:
 *  - struct fi_trace: the main thread, between runs (f_initialize,
 *    f_trace_start, f_trace_stop, f_finalize, and `calls` as it posts a
 *    run, a creation or a loop); the servers read `calls` during a run or
 *    a loop, published with it (run_gen, team_gen, server.c);
 *  - a server's buffer (bufs[s], also its `trace` in server.h): that
 *    server, during a run or its creator; the main thread's (bufs[nservers]):
 *    the main thread.  The writer reads them all between runs or once the
 *    servers have stopped, when none of them writes.
 *
 * Off, a server's `trace` is NULL and every hook is one test of it (or of
 * the thread-local fi_trace_here, state.h) on a path that is already
 * rare: nothing is recorded per fork or per filament, and the run loop
 * tests it once per run (scheduler.c).
 */
#ifndef FI_TRACE_H
#define FI_TRACE_H

#include <stdio.h>

#include "base.h"
#include "wait.h"

/* What a span was; trace.c's table names each and its arguments. */
enum fi_trace_kind {
    FI_TRACE_PARALLEL,     /* main: f_parallel */
    FI_TRACE_CREATE,       /* main: f_create_per_server */
    FI_TRACE_RUN,          /* a server's share of an f_parallel */
    FI_TRACE_CREATOR,      /* a server's creator (f_create_per_server) */
    FI_TRACE_PASS,         /* its pass over an iterative phase */
    FI_TRACE_DRAIN,        /* its own RTC and fork/join work of an episode */
    FI_TRACE_BARRIER,      /* an episode's barrier: arrival to release */
    FI_TRACE_BARRIER_CODE, /* a phase's sequential code, on the decider */
    FI_TRACE_SETTLE,       /* an episode's settling stage */
    FI_TRACE_STEAL,        /* filaments taken from another server and run */
    FI_TRACE_TAKE,         /* runs of a pass taken from another server's strip (adapt.c) */
    FI_TRACE_MOVE,         /* an instant: a strip's end moved between passes (adapt.c) */
    FI_TRACE_HANDOFF,      /* an instant: a waiter gave its core to a late server (handoff.c) */
    FI_TRACE_JOIN_WAIT,    /* a join waiting for a thief, helping it */
    FI_TRACE_POLL,         /* polling for outside events and running what they bring */
    FI_TRACE_YIELD,        /* a wait that yielded its core */
    FI_TRACE_SLEEP,        /* a wait that slept */
    FI_TRACE_LOOP,         /* main: a parallel loop's call (loop.c) */
    FI_TRACE_STRIP,        /* a strip of that loop, on the thread that ran it */
    FI_TRACE_KINDS
};

#define FI_TRACE_ARGS 4

/* A span, both ends from fi_clock_ns. */
struct fi_trace_event {
    unsigned long start_ns, end_ns;
    long arg[FI_TRACE_ARGS];
    enum fi_trace_kind kind;
};

/* One track's spans, in the order they ended; its owner alone writes it. */
struct fi_trace_buf {
    _Alignas(FI_CACHE_LINE) struct fi_trace_event *event;
    size_t n, cap;
    unsigned long dropped; /* spans that found the buffer full */
};

struct fi_trace {
    struct fi_trace_buf *bufs; /* nservers + 1, or NULL: not recording */
    int fd;                    /* the file, opened by the call that began the trace */
    int created;               /* that call created it (an undo removes it) */
    char *path;                /* a copy of FILAMENTS_TRACE's or f_trace_start's */
    size_t events;             /* each buffer's capacity: FILAMENTS_TRACE_EVENTS */
    long rank;                 /* the MPI launcher's rank, or -1 (env.c) */
    unsigned long origin_ns;   /* time 0 of the file: the trace's start */
    long calls;                /* f_parallel, f_create_per_server and main-thread loop calls traced */
    unsigned long call_start_ns;
};
FI_HIDDEN extern struct fi_trace fi_trace;
FI_HIDDEN extern const struct fi_mechanism fi_trace_mechanism;

/* The calling thread's buffer while it is in a traced run (a server) or a
 * traced call of the servers (the main thread), else NULL: wait.c records
 * its yields and sleeps there.  Defined in state.c with the other
 * thread-local words, so that wait.c reads it without linking to trace.c,
 * which reads wait.c's clock. */
extern FI_HIDDEN __thread struct fi_trace_buf *fi_trace_here
    __attribute__((tls_model("initial-exec")));

/* A main-thread call of the servers (f_create_per_server; f_parallel's
 * begin_run and end_run hooks; a parallel loop's call, loop.c): number it
 * and note its start, then record its span of `kind` on the main track,
 * with `result` as its second argument.  Nothing when not recording. */
FI_HIDDEN void fi_trace_call_open(void);
FI_HIDDEN void fi_trace_call_close(enum fi_trace_kind kind, long result);
/* Off, one test of bufs each, with no call (loop.c calls open and close
 * itself, behind a test of its own). */
static inline void fi_trace_call_begin(void)
{
    if (FI_UNLIKELY(fi_trace.bufs != NULL))
        fi_trace_call_open();
}
static inline void fi_trace_call_end(enum fi_trace_kind kind, long result)
{
    if (FI_UNLIKELY(fi_trace.bufs != NULL))
        fi_trace_call_close(kind, result);
}

/* Now, if b records; 0, without a look at the clock, if b is NULL. */
static inline unsigned long fi_trace_now(const struct fi_trace_buf *b)
{
    return FI_UNLIKELY(b != NULL) ? fi_clock_ns() : 0;
}

/* Add a span whose ends the caller read; a full buffer counts it dropped. */
static inline void fi_trace_add(struct fi_trace_buf *b, enum fi_trace_kind kind,
                                unsigned long start_ns, unsigned long end_ns, long a0, long a1,
                                long a2, long a3)
{
    if (b->n == b->cap) {
        b->dropped++;
        return;
    }
    b->event[b->n++] = (struct fi_trace_event){ start_ns, end_ns, { a0, a1, a2, a3 }, kind };
}

/* If b records: add a span from start_ns (fi_trace_now) to now, and return
 * now; else nothing, and 0. */
static inline unsigned long fi_trace_span(struct fi_trace_buf *b, enum fi_trace_kind kind,
                                          unsigned long start_ns, long a0, long a1, long a2,
                                          long a3)
{
    if (FI_LIKELY(b == NULL))
        return 0;
    unsigned long end_ns = fi_clock_ns();
    fi_trace_add(b, kind, start_ns, end_ns, a0, a1, a2, a3);
    return end_ns;
}

#endif /* FI_TRACE_H */
