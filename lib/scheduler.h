/*
 * scheduler.h - the run loop (scheduler.c), below the life cycle and above
 * the kinds, and the episode's `dynamic` word that the kinds set.
 *
 * What the scheduler needs of each kind of filament, and all it calls of
 * them during a run (fi_has_queued_work below is the quick look at both;
 * rtc.h, forkjoin.h and steal.h declare them):
 *   fi_KIND_drain(me)    run the server's own work of the kind until none
 *                        is left (fork/join: 1 if there was any);
 *   fi_KIND_visible(me)  is there work of the kind an idle server could
 *                        take?  Loads of shared words only;
 *   fi_KIND_help(me)     take some from another server and run it: 1 if
 *                        it ran anything;
 *   fi_forkjoin_ask(me)  ask the servers with nothing to steal for some.
 * The iterative kind gives passes and barrier code instead (phase.h).
 */
#ifndef FI_SCHEDULER_H
#define FI_SCHEDULER_H

#include "base.h"
#include "state.h"

FI_HIDDEN void fi_sched_run(struct fi_server *me);   /* a server's share of the run */
FI_HIDDEN extern const struct fi_mechanism fi_sched_mechanism;

/* Has the server filaments of its own waiting: RTC (pinned, F_ANY, inbox)
 * or fork/join?  Loads only, so that a barrier episode, where the answer is
 * usually no, skips the drains' calls and loops. */
static inline int fi_has_queued_work(const struct fi_server *me)
{
    return !fi_queue_empty_now(&me->pinned) || !fi_queue_empty_now(&me->any) ||
           AO_load(&me->inbox.count) != 0 || fi_deque_holds_work(&me->deque);
}

/* Work may move to a server that has already arrived at the barrier: the
 * episode must settle before it ends (scheduler.c).  Ordered by whatever
 * orders the caller's own arrival, or its claim's completion, after it. */
static inline void fi_sched_note_dynamic(const struct fi_server *me)
{
    if (!me->settling && AO_load(&fi_lib.dynamic) == 0)
        AO_store(&fi_lib.dynamic, 1);
}

#endif /* FI_SCHEDULER_H */
