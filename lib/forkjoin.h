/*
 * forkjoin.h - fork/join filaments [paper §2.3, §4.5] (forkjoin.c): the
 * kind's part of the run, and what creation, locks and statistics call.
 * Its state: each server's deque (server.h, deque.h: the owner at the
 * bottom, thieves at the top, atomic), and in fi_lib the pruning
 * threshold and the run's unstarted servers (state.h).
 */
#ifndef FI_FORKJOIN_H
#define FI_FORKJOIN_H

#include "base.h"
#include "server.h"

/* The kind's part of the run (scheduler.h; fi_forkjoin_visible is in steal.h). */
FI_HIDDEN int fi_forkjoin_drain_held(struct fi_server *me);
FI_HIDDEN int fi_forkjoin_help(struct fi_server *me);
FI_HIDDEN void fi_forkjoin_ask(struct fi_server *me);

/* fi_forkjoin_drain, with the test that nearly every barrier's caller
 * fails (an iterative program forks nothing) inline. */
static inline int fi_forkjoin_drain(struct fi_server *me)
{
    return fi_deque_holds_work(&me->deque) && fi_forkjoin_drain_held(me);
}

FI_HIDDEN void fi_forkjoin_begin_run(struct fi_server *me);
/* f_run_long's root: the typed slot *t, run as a filament of its own on
 * a server, its value left in *t (lifecycle.c reads it after the run). */
FI_HIDDEN FI_MUST_CHECK int fi_forkjoin_root_typed(struct f_task_ *t);
FI_HIDDEN void fi_forkjoin_bounds(struct fi_deque *d);
FI_HIDDEN void fi_forkjoin_open(struct fi_server *me, int open);
FI_HIDDEN long fi_prune_threshold(void);
/* F_PRUNE_AUTO's depth after a thief's request that came since_ns after
 * the last one (first: the run's first), when big of the pieces thieves
 * took ran FI_PRUNE_WORTH_NS or longer, of pieces (publish.c, adapt_depth). */
FI_HIDDEN size_t fi_prune_next_depth(size_t depth, size_t cap, unsigned long since_ns, int first,
                                     unsigned long big, unsigned long pieces);
/* Make half of the private slots public (at least one; none in barrier
 * code); and answer a thief's request for work, if one stands, so.  The
 * forks answer, and the joins, where a filament that forked its children
 * in a loop spends the rest of its time (publish.c). */
FI_HIDDEN void fi_forkjoin_publish(struct fi_server *me);
FI_HIDDEN void fi_forkjoin_answer(struct fi_server *me);
/* fn(frame, i, j, arg) as a function of `kind` (fn(i, j, arg) untyped):
 * its value, or 0. */
FI_HIDDEN f_value fi_call(unsigned long kind, void (*fn)(void), struct f_task_ *frame, long i,
                          long j, void *arg);
FI_HIDDEN void fi_task_run(struct fi_server *me, struct f_task_ *t);
/* Pop the newest slot and see it done: the slot, whose result is valid
 * until the next fork (typed.c's syncs). */
FI_HIDDEN struct f_task_ *fi_forkjoin_pop(struct fi_server *me);
/* A fork with no inline fast path before it (typed.c's forks), seq NULL
 * or the sequential version a pruned fork calls: F_OK, or for an untyped
 * fork an error. */
FI_HIDDEN int fi_forkjoin_fork(unsigned long kind, void (*fn)(void), void (*seq)(void), long i,
                               long j, void *arg);
FI_HIDDEN extern const struct fi_mechanism fi_forkjoin_mechanism;

#endif /* FI_FORKJOIN_H */
