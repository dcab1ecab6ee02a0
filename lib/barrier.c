/*
 * barrier.c - the combining-tree barrier that ends every episode [paper
 * §4.4; Mellor-Crummey and Scott, "Algorithms for Scalable Synchronization
 * on Shared-Memory Multiprocessors", ACM TOCS 9(1), 1991, §3.3, the tree
 * barrier].
 *
 * The servers form a tree of fan-in FI_BARRIER_FANIN rooted at server 0:
 * server k's parent is (k - 1) / FANIN.  A server arrives once its children
 * have: it stores the round number into its own slot of its parent's
 * `arrived` line.  The root, once its children have arrived, knows that
 * every server has; it alone decides what the round means (the caller's
 * `decide`, which may run the phase's sequential code) and releases its
 * children by storing the round and that verdict into each one's `go`
 * word; each passes the word on to its own children.  So arrival and
 * release take ceil(log_FANIN p) steps each, every server polls only
 * words on its own two cache lines, and no word is written by more than
 * one server in a round: no read-modify-write at all, where a counter
 * barrier has p of them on one line (doc/design.md, "The barrier").
 *
 * A waiting server polls, then yields, then sleeps (wait.c), and every few
 * polls asks the caller's `idle` operations whether it could help instead
 * (work in its inbox, a public fork/join filament to steal): an idle server
 * that helps may not slow the ones that have work.
 *
 * Written by the children: a server's `arrived` line, one word each.
 * Written by the parent: a server's `go` word.  Owner only:
 * barrier_round, barrier_children.
 */
#include "internal.h"
#include "wait.h"

#define VERDICT_BITS 2
#define VERDICT_MASK ((AO_t)((1u << VERDICT_BITS) - 1))
_Static_assert((FI_VERDICT_SETTLE | FI_VERDICT_DONE) <= VERDICT_MASK, "verdicts fit go's low bits");

/* Polls between two looks for work while waiting (a look reads one word of
 * every server); once the wait has begun to yield or sleep, every poll
 * looks: a sleeper is woken when work is published, and must see it. */
#define LOOK_EVERY 32

struct tree_wait {
    struct fi_server *me;
    AO_t round;
    int (*reached)(const struct fi_server *me, AO_t round);
    const struct fi_idle_ops *idle;
    unsigned polls;
    int work; /* the wait ended on work to help with, not on `reached` */
};

static int first_child(int k)
{
    return FI_BARRIER_FANIN * k + 1;
}

void fi_barrier_init(struct fi_server *s)
{
    int n = fi_lib.nservers - first_child(s->index);
    s->barrier_children = n < 0 ? 0 : n < FI_BARRIER_FANIN ? n : FI_BARRIER_FANIN;
}

static int subtree_arrived(const struct fi_server *me, AO_t round)
{
    for (int c = me->barrier_children; c-- > 0;)
        /* Acquire: the child's subtree's writes; pairs with arrive(). */
        if (AO_load_acquire(&me->barrier.arrived[c]) != round)
            return 0;
    return 1;
}

static int released(const struct fi_server *me, AO_t round)
{
    /* Acquire: the decision and what the root did before it (the
     * sequential code); pairs with release(). */
    return AO_load_acquire(&me->barrier.go) >> VERDICT_BITS == round;
}

static int wait_ready(void *ctx)
{
    struct tree_wait *w = ctx;
    if (w->reached(w->me, w->round))
        return 1;
    if (w->idle != NULL &&
        (++w->polls % LOOK_EVERY == 0 ||
         w->polls > (unsigned)fi_wait_spins(fi_lib.oversubscribed)) &&
        w->idle->visible(w->me)) {
        w->work = 1;
        return 1;
    }
    return 0;
}

/* Wait until reached(me, round), helping with any work that shows up
 * meanwhile. */
static void wait_for(struct fi_server *me, AO_t round,
                     int (*reached)(const struct fi_server *, AO_t), const struct fi_idle_ops *idle)
{
    struct tree_wait w = { me, round, reached, idle, 0, 0 };
    for (;;) {
        w.work = 0;
        w.polls = 0;
        fi_wait_until(&fi_lib.servers_wait, wait_ready, &w, fi_lib.oversubscribed, FI_RUN_YIELD_NS,
                      &me->stats.idle_ns);
        if (!w.work)
            return;
        idle->help(me);
    }
}

static void arrive(struct fi_server *me, AO_t round)
{
    int k = me->index;
    struct fi_server *parent = &fi_lib.servers[(k - 1) / FI_BARRIER_FANIN];
    /* Release: this subtree's work (and what it acquired from below) to
     * the parent; pairs with subtree_arrived(). */
    AO_store_release(&parent->barrier.arrived[(k - 1) % FI_BARRIER_FANIN], round);
    fi_wake_all(&fi_lib.servers_wait); /* the parent may be asleep */
}

static void release(struct fi_server *me, AO_t go)
{
    struct fi_server *child = &fi_lib.servers[first_child(me->index)];
    for (int c = 0; c < me->barrier_children; ++c)
        /* Release: the verdict and everything before it; pairs with released(). */
        AO_store_release(&child[c].barrier.go, go);
    if (me->barrier_children > 0)
        fi_wake_all(&fi_lib.servers_wait);
}

unsigned fi_barrier_cross(struct fi_server *me, unsigned (*decide)(void *), void *ctx,
                          const struct fi_idle_ops *idle)
{
    AO_t round = ++me->barrier_round;
    if (!subtree_arrived(me, round))
        wait_for(me, round, subtree_arrived, idle);
    unsigned verdict;
    if (me->index == 0) {
        verdict = decide(ctx);
    } else {
        arrive(me, round);
        wait_for(me, round, released, idle);
        verdict = (unsigned)(AO_load(&me->barrier.go) & VERDICT_MASK);
    }
    release(me, round << VERDICT_BITS | verdict);
    return verdict;
}
