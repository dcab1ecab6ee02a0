/*
 * publish.c - the owner's answer to a thief's request for work [paper
 * §4.5; Lace's split deque, van Dijk and van de Pol 2014]: half of the
 * private slots made public, and F_PRUNE_AUTO's depth adapted to how soon
 * the request came.  A thief that finds nothing public asks (steal.c);
 * the owner answers at its next fork (fork.c) or, where it forks no more
 * (a filament that forked its children in a loop and now joins them), in
 * its join (forkjoin.c), between children.
 *
 * Owner only.
 */
#include "forkjoin.h"
#include "state.h"
#include "wait.h"

/* Owner: make half of the private slots public (at least one).  Not in
 * barrier code, which runs alone, children included (f_fork(3)): the
 * others wait at the barrier, where they could steal. */
void fi_forkjoin_publish(struct fi_server *me)
{
    struct fi_deque *d = &me->deque;
    size_t private = fi_bottom(d) - d->split;
    if (private == 0 || me->in_barrier)
        return;    /* leave the request standing for the next fork */
    size_t split = d->split + (private + 1) / 2;
    for (size_t k = d->split; k < split; ++k)
        fi_task_mark(&d->own->slot_[k]);    /* no inline pop takes a public slot */
    AO_t ts = AO_load(&d->ts);
    /* Full: the slots before the new split, marks and all, to a thief's acquiring CAS. */
    while (!AO_compare_and_swap_full(&d->ts, ts, FI_TS(FI_TS_TOP(ts), split)))
        ts = AO_load(&d->ts);
    d->split = split;
    AO_store(&d->splitreq, 0);
    fi_forkjoin_bounds(d);
    /* The wake-up, with its full fence between our store of ts (the CAS) and
     * our look at the sleepers, which pairs with the fence between a
     * sleeper's announcement and its look at ts (wait.c, sleep_until;
     * steal.c, fi_forkjoin_visible).  No look before it: the CAS orders
     * the two only where a read-modify-write is a full fence (x86), and
     * libatomic_ops' generic CAS_full (arm64, POWER, RISC-V) is acq_rel,
     * which lets the look pass the store, see no sleeper, and leave an
     * idle server asleep with work public (tests/model/wake.c). */
    fi_wake_all(&fi_lib.servers_wait);
}

/*
 * F_PRUNE_AUTO's depth, at a thief's request.  A thief that asks again
 * soon after the last request found little in what it took: the children
 * this server held were small pieces (an unbalanced tree's, most of them
 * leaves), and each request costs both servers a round trip.  So hold
 * twice as many, up to the whole deque, that thieves find a choice of
 * pieces public without asking (some of an unbalanced tree's are large).
 * But only while one piece in FI_PRUNE_BIG_SHARE or more of those the
 * thieves took from here ran FI_PRUNE_WORTH_NS or longer (they time each;
 * on uts's binomial tree at 2 servers, 2.6-2.8 % of them): where every
 * piece is tiny (a loop of small forks), more of them only make more
 * steals, each dearer than the piece, and the depth halves instead.  Not
 * the pieces' average: on a deep tree the few large pieces are still
 * running when thieves ask, and the leaves that end at once kept the
 * average low, so that the depth sat at its least and the thieves,
 * helping at their joins, traded leaves (uts's binomial tree, untyped, at
 * 2 servers: a median of 8 300 steals a run against 3 000 with pruning
 * off).  A share, not the largest piece so far: one piece that the system
 * preempted would count for the rest of the run.  A thief that asks only
 * long after found plenty: halve it too, down to FI_PRUNE_DEPTH, and
 * prune more.  The run's first request is no sign either way: every
 * thief asks at a start.
 */
size_t fi_prune_next_depth(size_t depth, size_t cap, unsigned long since_ns, int first,
                           unsigned long big, unsigned long pieces)
{
    int worth = big * FI_PRUNE_BIG_SHARE >= pieces;
    if (first)
        return depth;
    if (since_ns < FI_PRUNE_QUICK_NS && worth)
        return depth < cap / 2 ? depth * 2 : cap;
    if ((since_ns > FI_PRUNE_SLOW_NS || !worth) && depth / 2 >= FI_PRUNE_DEPTH)
        return depth / 2;
    return depth;
}

static void adapt_depth(struct fi_deque *d)
{
    unsigned long now = fi_clock_ns();
    d->prune_depth = fi_prune_next_depth(d->prune_depth, d->cap, now - d->answered_ns,
                                         d->answered_ns == 0, AO_load(&d->stolen_big),
                                         AO_load(&d->stolen_pieces));
    d->answered_ns = now;
}

void fi_forkjoin_answer(struct fi_server *me)
{
    struct fi_deque *d = &me->deque;
    if (AO_load(&d->splitreq) != 0) {
        adapt_depth(d);
        fi_forkjoin_publish(me);
    }
}
