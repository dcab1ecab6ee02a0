/*
 * deque.c - the fork/join deque's life and the bounds of its fast paths
 * [paper §4.5]: one deque per server, made by f_initialize, opened on the
 * server's thread (its owner's part moves into the thread's f_deque_,
 * where filaments.h's inline fork, join and sync find it), and the bounds
 * that keep those inline paths off what only the library may do: a fork
 * past `limit` or `prune`, a pop of a marked slot (deque.h; fork.c and
 * forkjoin.c take the paths they fall back on; doc/design.md, "Fork/join",
 * has the states).
 *
 * Owner only, or the main thread between runs: everything but the bounds
 * `limit` and `peak`, which a thief zeroes (atomic) to ask for work
 * (steal.c); set_bounds below keeps that request.
 */
#include <string.h>

#include "forkjoin.h"
#include "lock.h"
#include "memory.h"
#include "env.h"
#include "state.h"

/* Outside the servers: every fast path fails and calls the library.  A
 * fork finds no room (bottom > limit) and no pruning (bottom < prune); a
 * join or sync finds a child (bottom > base), marked. */
static struct f_task_ no_slot[2] = { { .word_ = (F_MARK_ | F_NOT_UNTYPED_) << F_KIND_SHIFT_ } };
#define NO_DEQUE                                                                               \
    {                                                                                          \
        .bottom_ = no_slot + 1, .limit_ = no_slot, .base_ = no_slot, .prune_ = no_slot + 2,    \
        .peak_ = no_slot, .slot_ = no_slot                                                     \
    }
static const struct f_deque_ no_deque = NO_DEQUE;
F_API __thread struct f_deque_ f_deque_ = NO_DEQUE;

/* The bytes of a deque of cap slots: one more, marked, below the first, so
 * that a sync at the first slot reads a mark there, where the library has
 * the last word; and one above the last, the frame of a child run at the
 * bottom of a full deque, where fi_call leaves its words. */
static size_t deque_bytes(size_t cap)
{
    return (cap + 2) * sizeof(struct f_task_);
}

static int deque_init(struct fi_deque *d, size_t slots)
{
    memset(d, 0, sizeof *d);
    d->cap = slots;
    /* Zeroed (done and thief start at 0) and touched only as used. */
    d->own = &d->home;
    d->prune_depth = FI_PRUNE_DEPTH;
    struct f_task_ *pages = fi_alloc_zeroed_pages(deque_bytes(d->cap));
    /* Room for the values of typed forks kept aside in a full deque
     * (fork.c), which is the one allocation a typed fork could need:
     * made here, so that those forks cannot fail (f_fork(3)). */
    d->pruned_cap = FI_PRUNED_VALUES;
    d->pruned = fi_alloc(d->pruned_cap * sizeof *d->pruned);
    if (pages == NULL || d->pruned == NULL) {    /* deques_free frees `pruned` */
        if (pages != NULL)
            fi_free_pages(pages, deque_bytes(d->cap));
        return F_ENOMEM;
    }
    fi_task_mark(pages);
    d->own->slot_ = pages + 1;
    d->own->bottom_ = d->own->base_ = d->own->slot_;
    AO_store(&d->ts, FI_TS(0, 0));
    AO_store(&d->splitreq, 0);
    fi_forkjoin_bounds(d);
    return F_OK;
}

/* Also of a deque that f_initialize zeroed and never initialized (own NULL). */
static void deque_destroy(struct fi_deque *d)
{
    if (d->own == NULL)
        return;
    if (d->own->slot_ != NULL)
        fi_free_pages(d->own->slot_ - 1, deque_bytes(d->cap));
    fi_free(d->pruned);
    d->own->slot_ = NULL;
    d->pruned = NULL;
}

static void deques_free(void)
{
    for (int k = 0; k < fi_lib.nservers; ++k)
        deque_destroy(&fi_lib.servers[k].deque);
}

/* f_initialize: a deque of FILAMENTS_DEQUE slots per server, and the
 * pruning threshold of FILAMENTS_PRUNE. */
static int deques_alloc(const struct fi_env *env)
{
    AO_store(&fi_lib.prune, (AO_t)env->prune);
    for (int k = 0; k < fi_lib.nservers; ++k)
        if (deque_init(&fi_lib.servers[k].deque, (size_t)env->deque_slots) < 0) {
            deques_free();
            return F_ENOMEM;
        }
    return F_OK;
}

/* Root filaments never run (f_finalize without f_parallel): free their blocks. */
static void discard_roots(fi_discard_fn discard)
{
    for (int k = 0; k < fi_lib.nservers; ++k) {
        struct f_deque_ *o = fi_lib.servers[k].deque.own;
        for (struct f_task_ *t = o != NULL ? o->slot_ : NULL; t != NULL && t < o->bottom_; ++t)
            discard((f_func)fi_task_fn(t), t->arg_);
    }
}

long fi_prune_threshold(void)
{
    return (long)AO_load(&fi_lib.prune);
}

/* Store a fork bound if it changed; 1 if that raised it from a value a
 * thief's zero may have left. */
static int store_bound(volatile AO_t *bound, struct f_task_ *value)
{
    if (AO_load(bound) == (AO_t)value)
        return 0;    /* most calls move one bound only */
    AO_store(bound, (AO_t)value);
    return value != NULL;
}

/*
 * Set the two fork bounds that a thief zeroes to ask for work (steal.c):
 * to 0 while a request stands, so that the next fork answers it.  A thief
 * sets splitreq, then zeroes the bounds, with a full fence between
 * (steal.c); a raise here is a store, then a look at splitreq, with a full
 * fence between (Dekker's pattern; doc/model-check.md, bounds-fence): either
 * the look sees the request and both bounds go back to 0, or the thief's
 * zeroes come after the raise.  One fence serves both bounds.  A
 * compare-and-swap of each bound instead would not do: a late zero of an
 * earlier request can leave a bound 0, and a new request's zero then
 * changes nothing that the CAS would see, so that the raise undoes the
 * request for good (check_deque, test_deque_requests_kept).
 */
static void set_bounds(struct fi_deque *d, struct f_task_ *limit, struct f_task_ *peak)
{
    if (AO_load(&d->splitreq) != 0)
        limit = peak = NULL;
    int raised = store_bound(fi_deque_limit(d), limit);
    raised |= store_bound(fi_deque_peak(d), peak);
    if (raised) {
        AO_nop_full();
        if (AO_load(&d->splitreq) != 0) {
            AO_store(fi_deque_limit(d), 0);
            AO_store(fi_deque_peak(d), 0);
        }
    }
}

/*
 * Pruned typed results lie above every slot (they are made only in a full
 * deque): while there are any, every fork and every pop goes through the
 * library, which sees them; and so while the thread holds a lock
 * (--enable-debug), so that the library refuses f_join.  The bounds of
 * both inline forks are 0 then, and the top slot is marked (public ones
 * are marked already), so that the inline pops stop at once.
 */
static int fenced(const struct fi_deque *d)
{
    return d->npruned > 0 || fi_locks_held();
}

/* Recompute the fast paths' bounds after bottom, split, the pruned results,
 * the peak or the pruning threshold changed outside them. */
void fi_forkjoin_bounds(struct fi_deque *d)
{
    /* Pruning starts at the threshold's slot, and in a full deque whatever
     * the threshold (prune_now): a prune index past cap is cap. */
    size_t prune = d->cap;
    long threshold = fi_prune_threshold();
    if (threshold == F_PRUNE_AUTO)
        prune = fi_deque_oldest_held(d) + d->prune_depth;
    else if (threshold > 0 && (size_t)threshold < d->cap)
        prune = fi_deque_oldest_held(d) + (size_t)threshold + 1;
    if (prune > d->cap)
        prune = d->cap;
    size_t limit = prune;
    if (d->peak < limit)
        limit = d->peak;    /* a new peak goes through the slow path, once */
    int fence = fenced(d);
    d->own->prune_ = d->own->slot_ + prune;
    if (fence)
        set_bounds(d, NULL, NULL);
    else
        set_bounds(d, d->own->slot_ + limit, d->own->slot_ + d->peak);
    if (fence && fi_bottom(d) > d->split)
        fi_task_mark(d->own->bottom_ - 1);
}

void fi_forkjoin_begin_run(struct fi_server *me)
{
    me->deque.prune_depth = FI_PRUNE_DEPTH;
    me->deque.answered_ns = 0;    /* none yet: the first request is no sign */
    AO_store(&me->deque.stolen_pieces, 0);
    AO_store(&me->deque.stolen_big, 0);
    fi_forkjoin_bounds(&me->deque);
}

/*
 * Open the fast paths on the calling server's thread: the owner's part of
 * its deque moves into the thread's f_deque_, where the inlines find it;
 * or close them: it moves back home (struct fi_deque), and f_deque_ fails
 * every fast path.  Open from the server's start to its end, but for its
 * creator (create.c), which neither forks nor joins.  No thief is about
 * while it moves: servers start and end, and creators run, between runs;
 * the next run's start orders the move before any thief reads d->own.
 */
void fi_forkjoin_open(struct fi_server *me, int open)
{
    struct fi_deque *d = &me->deque;
    struct f_deque_ *to = open ? &f_deque_ : &d->home;
    if (d->own != to) {
        *to = *d->own;
        d->own = to;
    }
    if (!open)
        f_deque_ = no_deque;
}

const struct fi_mechanism fi_forkjoin_mechanism = { .alloc = deques_alloc,
                                                    .open = fi_forkjoin_open,
                                                    .discard = discard_roots,
                                                    .free = deques_free };
