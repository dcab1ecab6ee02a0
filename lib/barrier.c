/*
 * barrier.c - the combining-tree barrier that ends every episode [paper
 * §4.4; Yew, Tzeng and Lawrie, "Distributing Hot-Spot Addressing in
 * Large-Scale Multiprocessors", IEEE ToC 36(4), 1987; Mellor-Crummey and
 * Scott, "Algorithms for Scalable Synchronization on Shared-Memory
 * Multiprocessors", ACM TOCS 9(1), 1991, §3.3].
 *
 * The servers are the leaves of a tree of fan-in FI_BARRIER_FANIN (or
 * FILAMENTS_TEST_FANIN's smaller one, env.c): server s arrives at node
 * s / FANIN of the lowest level, each node at the next level up.  At a node, an arriving server writes the address of its `go`
 * word into its child's slot and increments the node's count; the last to
 * arrive goes on to the node above, the others wait, each on its own `go`.
 * The last server to arrive at the top knows that every server has
 * arrived; it alone decides what the round means (the caller's `decide`,
 * which may run the phase's sequential code) and releases the servers that
 * stopped at the nodes it climbed through, top down; each passes the word
 * on at the nodes it climbed through in turn.
 *
 * So arrival and release take ceil(log_FANIN p) steps, an arrival is one
 * read-modify-write on a line shared by at most FANIN servers, every
 * waiter polls a line of its own, and no server waits for a particular
 * server to arrive: the last one goes on at once, which matters where
 * servers outnumber cores and the one a fixed tree waits for may not be
 * running (doc/design.md, "The barrier").
 *
 * A waiting server polls, then yields, then sleeps (wait.c), and every few
 * polls asks the caller's `idle` operations whether it could help instead
 * (work in its inbox, a public fork/join filament to steal): an idle server
 * that helps may not slow the ones that have work.  With nothing to help
 * with, it looks for a late server that the OS has taken off its core, to
 * give it its own (handoff.c).
 *
 * Written by the arrivers: a node's count and slots.  Written by the
 * releaser: a server's `barrier_go`.  The owner: barrier_round, which the
 * waiters read (handoff.c).
 */
#include <limits.h>
#include <string.h>

#include "barrier.h"
#include "memory.h"
#include "env.h"
#include "handoff.h"
#include "state.h"
#include "wait.h"

#define VERDICT_BITS 2
#define VERDICT_MASK ((AO_t)((1u << VERDICT_BITS) - 1))
_Static_assert((FI_VERDICT_SETTLE | FI_VERDICT_DONE) <= VERDICT_MASK, "verdicts fit go's low bits");

/* Polls between two looks for work while waiting (a look reads one word of
 * every server); once the wait has begun to yield or sleep, every poll
 * looks: a sleeper is woken when work is published, and must see it. */
#define LOOK_EVERY 32

/* Polls of the go word alone, before the first look (wait_for_release). */
#define QUICK_POLLS (FI_SPIN_POLLS < LOOK_EVERY - 1 ? FI_SPIN_POLLS : LOOK_EVERY - 1)

/* A tree of fan-in 2 or more over at most INT_MAX servers is shallower. */
#define MAX_LEVELS ((int)(sizeof(int) * CHAR_BIT))

struct fi_barrier_node {
    /* Arrivals this round: the last one resets it before it climbs on. */
    _Alignas(FI_CACHE_LINE) volatile AO_t arrivals;
    /* The go word of whoever arrived from child c this round, so that the
     * release stores to it with no look at the server table. */
    volatile AO_t from[FI_BARRIER_FANIN];
    /* Read-only in a run. */
    AO_t last;  /* children - 1: the old count that the last arriver sees */
    struct fi_barrier_node *parent;  /* NULL at the top */
    int children;
    int slot;  /* this node's child slot in the parent */
};

/* The tree for the servers, level by level (f_initialize). */
static int tree_alloc(const struct fi_env *env)
{
    const int nservers = fi_lib.nservers;
    const int k = env->fanin;
    int total = 0;
    for (int units = nservers; units > 1; units = (units + k - 1) / k)
        total += (units + k - 1) / k;
    fi_lib.barrier_nodes = NULL;
    if (total == 0)
        return F_OK; /* one server: it is the top */
    struct fi_barrier_node *nodes = fi_alloc_aligned((size_t)total * sizeof *nodes);
    if (nodes == NULL)
        return F_ENOMEM;
    memset(nodes, 0, (size_t)total * sizeof *nodes);
    /* Level by level, from the servers up: `units` children, in groups. */
    int first = 0;
    for (int units = nservers; units > 1;) {
        int count = (units + k - 1) / k;
        for (int g = 0; g < count; ++g) {
            struct fi_barrier_node *n = &nodes[first + g];
            n->children = units - g * k < k ? units - g * k : k;
            n->last = (AO_t)n->children - 1;
            n->parent = count > 1 ? &nodes[first + count + g / k] : NULL;
            n->slot = g % k;
        }
        first += count;
        units = count;
    }
    for (int s = 0; s < nservers; ++s) {
        fi_lib.servers[s].barrier_leaf = &nodes[s / k];
        fi_lib.servers[s].barrier_slot = (unsigned)(s % k);
    }
    fi_lib.barrier_nodes = nodes;
    return F_OK;
}

static void tree_free(void)
{
    fi_free(fi_lib.barrier_nodes);
    fi_lib.barrier_nodes = NULL;
}

/* Arrive at node n from child `slot`; true if the caller was the last. */
static int arrive(struct fi_barrier_node *n, unsigned slot, volatile AO_t *go)
{
    AO_store(&n->from[slot], (AO_t)go);
    /* Full: release, this subtree's work (and what it acquired from below)
     * and the slot to the last arriver; acquire, if we are the last, the
     * others'.  The increments of a round form one release sequence. */
    if (AO_fetch_and_add1_full(&n->arrivals) != n->last)
        return 0;
    /* Before anybody's next arrival here: they have yet to be released. */
    AO_store(&n->arrivals, 0);
    return 1;
}

struct go_wait {
    struct fi_server *me;
    AO_t round;
    const struct fi_idle_ops *idle;
    unsigned polls;
    int work; /* the wait ended on work to help with, not on the release */
    struct fi_handoff_watch watch;
};

static int released(const struct fi_server *me, AO_t round)
{
    /* Acquire: the decision and what the deciding server did before it
     * (the sequential code); pairs with release(). */
    return AO_load_acquire(&me->barrier_go) >> VERDICT_BITS == round;
}

static int released_or_work(void *ctx)
{
    struct go_wait *w = ctx;
    if (released(w->me, w->round))
        return 1;
    if (++w->polls % LOOK_EVERY != 0 && w->polls <= (unsigned)fi_wait_spins(fi_lib.oversubscribed))
        return 0;
    if (w->idle->visible(w->me)) {
        w->work = 1;
        return 1;
    }
    if (fi_lib.handoff)
        fi_handoff_look(w->me, w->round, &w->watch);
    return 0;
}

/* Wait for the release of `round`, helping with any work that shows up
 * meanwhile. */
static void wait_for_release(struct fi_server *me, AO_t round, const struct fi_idle_ops *idle)
{
    /* First the polls before the first look, here: the wait of a plain
     * pass ends among them, and its way on to the next pass is then a load
     * and a branch, not a return through fi_wait_until and its test (and,
     * like its first polls, untimed: f_get_stats(3)).  A waiter that must
     * cede its core leaves its few polls to fi_wait_until, which counts
     * them before it yields. */
    unsigned quick = fi_lib.oversubscribed ? 0 : QUICK_POLLS;
    for (unsigned k = 0; k < quick; ++k) {
        if (released(me, round))
            return;
        fi_cpu_relax();
    }
    struct go_wait w = { .me = me, .round = round, .idle = idle, .polls = quick };
    for (;;) {
        w.work = 0;
        fi_handoff_watch_init(&w.watch);
        fi_wait_until(&fi_lib.servers_wait, released_or_work, &w, fi_lib.oversubscribed,
                      FI_RUN_YIELD_NS, &me->stats.idle_ns);
        if (!w.work)
            return;
        idle->help(me);
        w.polls = 0;
    }
}

/* Release the servers that stopped at the nodes path[0 .. won), top down:
 * the largest subtrees first. */
static void release(const struct fi_server *me, struct fi_barrier_node *const *path, int won,
                    AO_t go)
{
    for (int l = won; l-- > 0;) {
        const struct fi_barrier_node *n = path[l];
        for (int c = 0; c < n->children; ++c) {
            volatile AO_t *to = (volatile AO_t *)AO_load(&n->from[c]);
            if (to != &me->barrier_go)
                /* Release: the verdict and everything before it; pairs with released(). */
                AO_store_release(to, go);
        }
    }
    if (won > 0)
        fi_wake_all(&fi_lib.servers_wait);
}

unsigned fi_barrier_cross(struct fi_server *me, unsigned (*decide)(void *), void *ctx,
                          const struct fi_idle_ops *idle)
{
    if (fi_lib.barrier_nodes == NULL)
        return decide(ctx);  /* one server: it is the top, and nobody waits */
    AO_t round = me->barrier_round + 1;
    AO_store(&me->barrier_round, round);  /* seen by the waiters' watch (handoff.c) */
    struct fi_barrier_node *path[MAX_LEVELS];
    int won = 0;
    /* Noted once: no division on the way in. */
    struct fi_barrier_node *n = me->barrier_leaf;
    unsigned slot = me->barrier_slot;
    while (n != NULL && arrive(n, slot, &me->barrier_go)) {
        path[won++] = n;
        slot = (unsigned)n->slot;
        n = n->parent;
    }
    unsigned verdict;
    if (n == NULL) {
        verdict = decide(ctx);
    } else {
        wait_for_release(me, round, idle);
        verdict = (unsigned)(AO_load(&me->barrier_go) & VERDICT_MASK);
    }
    release(me, path, won, round << VERDICT_BITS | verdict);
    return verdict;
}

const struct fi_mechanism fi_barrier_mechanism = { .alloc = tree_alloc, .free = tree_free };
