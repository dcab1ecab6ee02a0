/*
 * wait.h - waiting without burning the machine: poll with a pause, then
 * yield, then sleep on the library's one condition variable.  Used by
 * servers parked between runs, idle servers in a run, servers at a barrier,
 * and the main thread in f_parallel.
 */
#ifndef FI_WAIT_H
#define FI_WAIT_H

/* True when the waiter should stop waiting.  Must only read shared words. */
typedef int (*fi_ready_fn)(void *ctx);

FI_HIDDEN FI_MUST_CHECK int fi_waitset_init(struct fi_waitset *w);
FI_HIDDEN void fi_waitset_destroy(struct fi_waitset *w);

/* Return once ready(ctx) is true.  Adds the time waited to *idle_ns if not NULL. */
FI_HIDDEN void fi_wait_until(fi_ready_fn ready, void *ctx, unsigned long *idle_ns);

/* Call after publishing what a waiter's ready() looks for (with a release
 * or stronger): wakes the sleepers, if there are any. */
FI_HIDDEN void fi_wake_all(void);

#endif /* FI_WAIT_H */
