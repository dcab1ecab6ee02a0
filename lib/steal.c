/*
 * steal.c - stealing fork/join filaments [paper §4.2, §4.5; Korch and
 * Rauber §3.5].
 *
 * A thief claims the oldest public slot of a victim's deque (the largest
 * piece of work, WorkCrews' observation) with one CAS on the victim's `ts`
 * word, then reads the slot: the CAS both orders the read after the
 * owner's publication and keeps the owner from taking the slot back.  It
 * runs the filament on its own stack and deque, writes the result into the
 * victim's slot and releases `done`, which the parent's join acquires.
 * Finding nothing public, it asks (fi_steal_request): it zeroes the bounds
 * of both inline forks, untyped and typed, so that the owner's next fork
 * of either goes through the library and publishes half of its private
 * slots.
 */
#include "internal.h"
#include "wait.h"

/* Owner: make half of the private slots public (at least one).  Not in
 * barrier code, which runs alone, children included (f_fork(3)): the
 * others wait at the barrier, where they could steal. */
void fi_steal_publish(struct fi_server *me)
{
    struct fi_deque *d = &me->deque;
    size_t private = fi_bottom(d) - d->split;
    if (private == 0 || me->in_barrier)
        return;    /* leave the request standing for the next fork */
    size_t split = d->split + (private + 1) / 2;
    AO_t ts = AO_load(&d->ts);
    /* Full: the slots before the new split, to a thief's acquiring CAS;
     * and our store of ts before our look at the sleepers. */
    while (!AO_compare_and_swap_full(&d->ts, ts, FI_TS(FI_TS_TOP(ts), split)))
        ts = AO_load(&d->ts);
    d->split = split;
    AO_store(&d->splitreq, 0);
    fi_forkjoin_bounds(d);
    if (AO_load(&fi_lib.servers_wait.sleepers) != 0)
        fi_wake_all(&fi_lib.servers_wait);
}

/* Ask the owner for work: its next fork takes the slow path and publishes. */
void fi_steal_request(struct fi_server *victim)
{
    struct fi_deque *d = &victim->deque;
    if (AO_load(&d->splitreq) == 0 && AO_compare_and_swap(&d->splitreq, 0, 1)) {
        AO_store(fi_deque_limit(d), 0);
        AO_store(fi_deque_peak(d), 0);
    }
}

int fi_steal_from(struct fi_server *me, struct fi_server *victim)
{
    struct fi_deque *d = &victim->deque;
    AO_t ts = AO_load(&d->ts);
    size_t top = FI_TS_TOP(ts);
    if (top >= FI_TS_SPLIT(ts)) {
        if (victim != me)
            fi_steal_request(victim);
        return 0;
    }
    me->stats.steal_attempts++;
    /* Acquire: the slot as the owner published it (fi_steal_publish). */
    if (!AO_compare_and_swap_acquire(&d->ts, ts, FI_TS(top + 1, FI_TS_SPLIT(ts))))
        return 0;
    fi_count_at_work(me);
    struct f_task_ *slot = &d->own.slot_[top];
    AO_store(fi_task_thief(slot), (AO_t)me->index + 1);
    struct f_task_ t = { .kind_ = slot->kind_, .fn_ = slot->fn_, .i_ = slot->i_, .j_ = slot->j_,
                         .arg_ = slot->arg_, .result_ = slot->result_ };
    fi_task_run(me, &t);
    slot->result_ = t.result_;
    me->stats.steals++;
    me->deque.taken++;
    /* Release: the result before the flag; pairs with wait_stolen. */
    AO_store_release(fi_task_done(slot), 1);
    return 1;
}

/* Is there a public fork/join filament anywhere?  Reads shared words only. */
int fi_steal_visible(const struct fi_server *me)
{
    for (int k = 0; k < fi_lib.nservers; ++k) {
        AO_t ts = AO_load(&fi_lib.servers[k].deque.ts);
        if (FI_TS_TOP(ts) < FI_TS_SPLIT(ts))
            return 1;
    }
    return 0;
}

/* Steal one filament from some other server, starting at a random victim;
 * ask every victim with nothing public for more.  1 if one ran. */
int fi_steal_any(struct fi_server *me)
{
    int n = fi_lib.nservers;
    me->steal_seed = me->steal_seed * 1103515245u + 12345u;
    int start = (int)((me->steal_seed >> 16) % (unsigned)n);
    for (int k = 0; k < n; ++k) {
        struct fi_server *victim = &fi_lib.servers[(start + k) % n];
        if (victim != me && fi_steal_from(me, victim))
            return 1;
    }
    return 0;
}
