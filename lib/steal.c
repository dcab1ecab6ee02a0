/*
 * steal.c - the thief's side of the split deque [paper §4.2, §4.5; Korch
 * and Rauber §3.5].
 *
 * A thief claims the oldest public slot of a victim's deque (the largest
 * piece of work, WorkCrews' observation) with one CAS on the victim's `ts`
 * word, then reads the slot: the CAS both orders the read after the
 * owner's publication and keeps the owner from taking the slot back.
 * Finding nothing public, it asks (fi_steal_request): it zeroes the bounds
 * of both inline forks, untyped and typed, so that the owner's next fork
 * of either goes through the library and publishes half of its private
 * slots.  Running what was claimed, and the owner's side of the protocol,
 * are fork/join's (forkjoin.c); doc/design.md, "Fork/join", has the states.
 */
#include "steal.h"
#include "state.h"

/* Ask the owner for work: its next fork takes the slow path and publishes. */
void fi_steal_request(struct fi_server *victim)
{
    struct fi_deque *d = &victim->deque;
    if (AO_load(&d->splitreq) == 0 && AO_compare_and_swap(&d->splitreq, 0, 1)) {
        /* Full: our request before our zeroes of the bounds, as the owner
         * has a fence between its raise of a bound and its look at
         * splitreq (deque.c, set_bounds): with neither store ordered, a
         * zero can land before the owner's raise while the owner's look
         * misses the request, which then stands with the bounds raised and
         * is never answered (tests/model/deque.c, libatomic_ops' generic
         * mapping).  On x86 the CAS is a fence already. */
        AO_nop_full();
        AO_store(fi_deque_limit(d), 0);
        AO_store(fi_deque_peak(d), 0);
    }
}

struct f_task_ *fi_steal_claim(struct fi_server *me, struct fi_server *victim)
{
    struct fi_deque *d = &victim->deque;
    AO_t ts = AO_load(&d->ts);
    size_t top = FI_TS_TOP(ts);
    if (top >= FI_TS_SPLIT(ts)) {
        if (victim != me)
            fi_steal_request(victim);
        return NULL;
    }
    me->stats.steal_attempts++;
    /* Acquire: the slot as the owner published it (publish.c). */
    if (!AO_compare_and_swap_acquire(&d->ts, ts, FI_TS(top + 1, FI_TS_SPLIT(ts))))
        return NULL;
    fi_count_at_work(me);
    /* The last public slot: ask for more now, so that the owner's answer
     * (at its next fork, or between the children it joins) comes while we
     * run this one, not after (a loop of forks whose owner runs a pruned
     * child at a time answers only between them). */
    if (top + 1 == FI_TS_SPLIT(ts) && victim != me)
        fi_steal_request(victim);
    struct f_task_ *slot = &d->own->slot_[top];
    AO_store(fi_task_thief(slot), (AO_t)me->index + 1);
    return slot;
}

/* Is there a public fork/join filament anywhere?  Reads shared words only. */
int fi_forkjoin_visible(const struct fi_server *me)
{
    for (int k = 0; k < fi_lib.nservers; ++k) {
        AO_t ts = AO_load(&fi_lib.servers[k].deque.ts);
        if (FI_TS_TOP(ts) < FI_TS_SPLIT(ts))
            return 1;
    }
    return 0;
}
