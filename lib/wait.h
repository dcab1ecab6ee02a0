/*
 * wait.h - waiting without burning the machine: poll with a pause, then
 * yield, then sleep on a condition variable: the servers' (parked between
 * runs, idle in a run, at a barrier) or the main thread's (in f_parallel),
 * so that the servers' wakers never pay for the sleeping main thread.
 */
#ifndef FI_WAIT_H
#define FI_WAIT_H

#include <pthread.h>

#include "base.h"

/* Threads asleep until a word they wait for changes: the servers (parked,
 * idle, at a barrier) or the main thread (in f_parallel).  `sleepers` is
 * written by every waiter and read by every waker (wait.c). */
struct fi_waitset {
    pthread_mutex_t mutex;
    pthread_cond_t cond;
    volatile AO_t sleepers;  /* threads in (or entering) cond_wait */
};

/* True when the waiter should stop waiting.  Must only read shared words. */
typedef int (*fi_ready_fn)(void *ctx);

FI_HIDDEN FI_MUST_CHECK int fi_waitset_init(struct fi_waitset *w);
FI_HIDDEN void fi_waitset_destroy(struct fi_waitset *w);

/* Return once ready(ctx) is true: poll, then yield FI_YIELD_POLLS times
 * and for yield_ns (FI_PARK_YIELD_NS or FI_RUN_YIELD_NS), then sleep on w.  Set cede when
 * the thread that will make ready() true may need this core (more threads
 * than cores): the wait then polls briefly and yields early.  Adds the time
 * waited to *idle_ns if not NULL. */
FI_HIDDEN void fi_wait_until(struct fi_waitset *w, fi_ready_fn ready, void *ctx, int cede,
                             unsigned long yield_ns, unsigned long *idle_ns);

/* How many times fi_wait_until polls before it begins to yield. */
static inline int fi_wait_spins(int cede)
{
    return cede ? FI_SPIN_POLLS / 64 : FI_SPIN_POLLS;
}

/* The clock of the idle-time statistic (f_get_stats(3)): cheap and coarse,
 * right on average over many waits (wait.c). */
FI_HIDDEN unsigned long fi_idle_clock_ns(void);

/* The precise monotonic clock, in ns: 25 ns a read here, for rare events. */
FI_HIDDEN unsigned long fi_clock_ns(void);

/* Call after publishing what a waiter's ready() looks for (with a release
 * or stronger): wakes the sleepers of w, if there are any. */
FI_HIDDEN void fi_wake_all(struct fi_waitset *w);

#endif /* FI_WAIT_H */
