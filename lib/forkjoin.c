/*
 * forkjoin.c - fork/join filaments: fork, helper-join, pruning, typed
 * forks [paper §2.3, §4.5].
 *
 * A fork writes a slot at the bottom of the server's deque (deque.h).  A
 * join pops the calling filament's children, newest first, down to the
 * slot where they began (`base`): a child still private is simply called,
 * on this stack - the parent becomes the server; a public one is taken
 * back with a CAS unless a thief got it first, and then the join waits for
 * the thief's release of `done`, stealing meanwhile from that thief
 * (leapfrogging, steal.c) so that waiting never buries the parent under
 * unrelated work.  A filament that returns with children outstanding is
 * joined when it returns.  The fast paths (push, pop_run) compare bottom
 * with one bound each; everything else is in the slow paths.
 *
 * Pruning: with F_PRUNE_AUTO a fork is a plain call while the server holds
 * FI_PRUNE_DEPTH private children already and no thief has asked for work;
 * with a threshold N, while it holds more than N; never with 0.  A pruned
 * fork of f_fork_seq calls the sequential version; before it does, the
 * server publishes its private children, so that thieves find the large,
 * old ones while it runs the pruned subtree.  A typed fork that is pruned
 * runs at once and leaves its result for its sync.
 *
 * The stacks: a chain of n nested forks recurses through fi_task_run on a
 * server's stack, about 200 bytes a level (f_fork(3)); FI_STACK_BYTES
 * (64 MiB) holds some 300 000 levels.
 */
#include <sched.h>
#include <string.h>

#include "internal.h"
#include "wait.h"

int fi_deque_init(struct fi_deque *d)
{
    memset(d, 0, sizeof *d);
    d->cap = FI_DEQUE_SLOTS;
    /* Zeroed (done and thief start at 0) and touched only as used. */
    d->slot = fi_alloc_zeroed_pages(d->cap * sizeof *d->slot);
    if (d->slot == NULL)
        return F_ENOMEM;
    AO_store(&d->ts, FI_TS(0, 0));
    AO_store(&d->splitreq, 0);
    return F_OK;
}

void fi_deque_destroy(struct fi_deque *d)
{
    fi_free_pages(d->slot, d->cap * sizeof *d->slot);
    fi_free(d->pruned);
    d->slot = NULL;
    d->pruned = NULL;
}

/* Root filaments never run (f_finalize without f_parallel): free their blocks. */
void fi_forkjoin_discard(struct fi_server *s)
{
    struct fi_deque *d = &s->deque;
    for (size_t k = 0; d->slot != NULL && k < d->bottom; ++k)
        fi_vararg_discard((f_func)d->slot[k].fn, d->slot[k].arg);
}

/* Recompute the fast paths' bounds after bottom, split, base, the pruned
 * results, the peak or the pruning threshold changed outside them. */
void fi_forkjoin_bounds(struct fi_deque *d)
{
    size_t limit = d->cap;
    long threshold = fi_lib.prune;
    if (threshold == F_PRUNE_AUTO && d->split + FI_PRUNE_DEPTH < limit)
        limit = d->split + FI_PRUNE_DEPTH;
    else if (threshold > 0 && d->split + (size_t)threshold + 1 < limit)
        limit = d->split + (size_t)threshold + 1;
    if (d->peak < limit)
        limit = d->peak;    /* a new peak goes through the slow path, once */
    d->limit = limit;

    size_t floor = d->split > d->base ? d->split : d->base;
    if (d->npruned > 0 && d->pruned[d->npruned - 1].bottom > floor)
        floor = d->pruned[d->npruned - 1].bottom;
    d->floor = floor;
}

void fi_forkjoin_begin_run(struct fi_server *me)
{
    fi_forkjoin_bounds(&me->deque);
}

/* ----------------------------------------------------------- trampolines */

static void call_void(struct fi_task *t)
{
    ((f_func)t->fn)(t->i, t->j, t->arg);
}

static void call_long(struct fi_task *t)
{
    t->result.l = ((f_long_func)t->fn)(t->i, t->j, t->arg);
}

static void call_double(struct fi_task *t)
{
    t->result.d = ((f_double_func)t->fn)(t->i, t->j, t->arg);
}

static void call_ptr(struct fi_task *t)
{
    t->result.p = ((f_ptr_func)t->fn)(t->i, t->j, t->arg);
}

/* ----------------------------------------------------------------- join */

static void join_to(struct fi_server *me, size_t base);

/* Run a fork/join filament here, its children starting at the current
 * bottom; join what it leaves behind. */
static inline void run_task(struct fi_server *me, struct fi_task *t,
                            void (*call)(struct fi_task *))
{
    struct fi_deque *d = &me->deque;
    size_t saved_base = d->base, saved_floor = d->floor;
    d->base = d->floor = d->bottom;
    call(t);
    if (FI_UNLIKELY(d->bottom != d->base))
        join_to(me, d->base);
    d->base = saved_base;
    /* A publication while t ran may have moved split past the old floor. */
    d->floor = saved_floor > d->split ? saved_floor : d->split;
    d->ran++;
}

void fi_task_run(struct fi_server *me, struct fi_task *t)
{
    run_task(me, t, t->call);
}

/* Pop the newest slot if it is private and above the floor, and run it
 * with `call` (its own trampoline if NULL; a typed sync names it). */
static inline struct fi_task *pop_run(struct fi_server *me, void (*call)(struct fi_task *))
{
    struct fi_deque *d = &me->deque;
    size_t b = d->bottom;
    if (FI_LIKELY(b > d->floor)) {
        struct fi_task *slot = &d->slot[--b];
        d->bottom = b;
        run_task(me, slot, call != NULL ? call : slot->call);
        return slot;
    }
    return NULL;
}

/* Wait for a thief to finish a slot, helping it meanwhile. */
static void wait_stolen(struct fi_server *me, struct fi_task *slot)
{
    unsigned spins = 0;
    /* Acquire: the thief's result; pairs with the release in steal.c. */
    while (!AO_load_acquire(&slot->done)) {
        AO_t thief = AO_load(&slot->thief);
        if (thief != 0 && fi_steal_from(me, &fi_lib.servers[thief - 1]))
            continue;
        if (++spins < FI_SPIN_POLLS)
            fi_cpu_relax();
        else
            sched_yield();
    }
    AO_store(&slot->done, 0);
    AO_store(&slot->thief, 0);
}

/*
 * The slow pop: the newest slot is public (take it back, or wait for the
 * thief that has it).  The caller has checked that it is above base and
 * no pruned result comes first.  Returns the slot, whose result is valid
 * until the next fork.
 */
static struct fi_task *pop_public(struct fi_server *me)
{
    struct fi_deque *d = &me->deque;
    size_t b = d->bottom - 1;
    struct fi_task *slot = &d->slot[b];
    FI_ASSERT(b < d->split);
    for (;;) {
        AO_t ts = AO_load(&d->ts);
        size_t top = FI_TS_TOP(ts);
        if (top <= b) {
            /* Still public: take it back by moving split down to it.
             * A thief's claim changes ts, so at most one of us wins. */
            if (!AO_compare_and_swap_full(&d->ts, ts, FI_TS(top, b)))
                continue;
            d->split = d->bottom = b;
            fi_forkjoin_bounds(d);
            fi_task_run(me, slot);
            return slot;
        }
        /* Stolen: top == split == b + 1.  Keep b below our bottom until the
         * thief has written into it, then drop it and lower top and split. */
        wait_stolen(me, slot);
        d->split = d->bottom = b;
        AO_store(&d->ts, FI_TS(b, b));
        fi_forkjoin_bounds(d);
        return slot;
    }
}

static void join_to(struct fi_server *me, size_t base)
{
    struct fi_deque *d = &me->deque;
    while (d->bottom > base)
        if (pop_run(me, NULL) == NULL)
            pop_public(me);
}

void fi_forkjoin_drain(struct fi_server *me)
{
    join_to(me, 0);
}

int f_join(void)
{
    struct fi_server *me = fi_self;
    if (me == NULL)
        return F_ESTATE;
    join_to(me, me->deque.base);
    return F_OK;
}

/* ----------------------------------------------------------------- fork */

void f_set_prune(long threshold)
{
    fi_lib.prune = threshold < 0 ? F_PRUNE_AUTO : threshold;
    if (fi_self != NULL)
        fi_forkjoin_bounds(&fi_self->deque);
}

long f_get_prune(void)
{
    return fi_lib.prune;
}

/* Push a slot; publish if a thief has asked for work. */
static inline void push_slot(struct fi_server *me, void (*call)(struct fi_task *),
                             void (*fn)(void), long i, long j, void *arg)
{
    struct fi_deque *d = &me->deque;
    size_t b = d->bottom;
    struct fi_task *slot = &d->slot[b];
    slot->call = call;
    slot->fn = fn;
    slot->i = i;
    slot->j = j;
    slot->arg = arg;
    d->bottom = b + 1;
    d->forks++;
    if (FI_UNLIKELY(AO_load(&d->splitreq) != 0))
        fi_steal_publish(me);
}

/* The fast path: push unless a bound says the slow path must decide. */
static inline int push(struct fi_server *me, void (*call)(struct fi_task *), void (*fn)(void),
                       long i, long j, void *arg)
{
    if (FI_UNLIKELY(me->deque.bottom >= me->deque.limit))
        return 0;
    push_slot(me, call, fn, i, j, arg);
    return 1;
}

/* A fork from the main thread between runs: a root filament, public at once. */
static int fork_root(void (*call)(struct fi_task *), void (*fn)(void), long i, long j,
                     void *arg)
{
    if (fi_check_main_between_runs() < 0)
        return F_ESTATE;
    if (fn == NULL)
        return F_EINVAL;
    struct fi_server *s = &fi_lib.servers[fi_lib.any_next++ % (unsigned)fi_lib.nservers];
    struct fi_deque *d = &s->deque;
    if (d->bottom == d->cap)
        return F_ENOMEM;
    struct fi_task *slot = &d->slot[d->bottom];
    slot->call = call;
    slot->fn = fn;
    slot->i = i;
    slot->j = j;
    slot->arg = arg;
    d->split = ++d->bottom;
    AO_store(&d->ts, FI_TS(0, d->split));
    if (d->bottom > d->peak)
        d->peak = d->bottom;
    d->forks++;
    return F_OK;
}

static int prune_now(const struct fi_deque *d)
{
    long threshold = fi_lib.prune;
    size_t private = d->bottom - d->split;
    if (d->bottom == d->cap)
        return 1;
    if (threshold == 0)
        return 0;
    if (threshold > 0)
        return private > (size_t)threshold;
    return private >= FI_PRUNE_DEPTH && AO_load(&d->splitreq) == 0;
}

/*
 * The slow fork: the main thread (a root), a bad argument, a new peak, a
 * full deque, or pruning.  `result` receives a pruned typed fork's value.
 */
static int fork_slow(void (*call)(struct fi_task *), void (*fn)(void), f_func seq, long i,
                     long j, void *arg, int typed)
{
    struct fi_server *me = fi_self;
    if (me == NULL)
        return typed ? F_ESTATE : fork_root(call, fn, i, j, arg);
    if (fn == NULL)
        return F_EINVAL;
    struct fi_deque *d = &me->deque;
    if (!prune_now(d)) {
        if (d->bottom + 1 > d->peak)
            d->peak = d->bottom + 1;
        push_slot(me, call, fn, i, j, arg);
        fi_forkjoin_bounds(d);
        return F_OK;
    }
    if (typed && d->npruned == d->pruned_cap) {
        size_t n = d->pruned_cap ? d->pruned_cap * 2 : 64;
        struct fi_pruned *p = fi_realloc(d->pruned, n * sizeof *p);
        if (p == NULL)
            return F_ENOMEM;
        d->pruned = p;
        d->pruned_cap = n;
    }
    d->forks++;
    d->pruned_forks++;
    if (seq != NULL) {
        if (fi_lib.nservers > 1 && fi_lib.prune == F_PRUNE_AUTO)
            fi_steal_publish(me);
        seq(i, j, arg);
        return F_OK;
    }
    struct fi_task t = { .call = call, .fn = fn, .i = i, .j = j, .arg = arg };
    run_task(me, &t, call);
    if (typed) {
        d->pruned[d->npruned++] = (struct fi_pruned){ t.result, d->bottom };
        fi_forkjoin_bounds(d);
    }
    return F_OK;
}

#define FI_FORK(call, fn, seq, i, j, arg, typed)                                                  \
    do {                                                                                       \
        struct fi_server *me_ = fi_self;                                                       \
        if (FI_LIKELY(me_ != NULL && (fn) != NULL) &&                                          \
            push(me_, call, (void (*)(void))(fn), i, j, arg))                                  \
            return F_OK;                                                                       \
        return fork_slow(call, (void (*)(void))(fn), seq, i, j, arg, typed);                   \
    } while (0)

int f_fork(f_func fn, long i, long j, void *arg)
{
    FI_FORK(call_void, fn, NULL, i, j, arg, 0);
}

int f_fork_seq(f_func fn, f_func seq, long i, long j, void *arg)
{
    if (seq == NULL)
        return fi_self == NULL && fi_check_main_between_runs() < 0 ? F_ESTATE : F_EINVAL;
    FI_FORK(call_void, fn, seq, i, j, arg, 0);
}

/* The slow sync: a pruned result, a public slot, or nothing to sync. */
static struct fi_task *sync_slow(f_value *pruned)
{
    struct fi_server *me = fi_self;
    if (me == NULL)
        return NULL;
    struct fi_deque *d = &me->deque;
    if (d->npruned > 0 && d->pruned[d->npruned - 1].bottom == d->bottom) {
        *pruned = d->pruned[--d->npruned].result;
        fi_forkjoin_bounds(d);
        return NULL;
    }
    if (d->bottom <= d->base)
        return NULL;
    return pop_public(me);
}

#define FI_SYNC(call, member)                                                                  \
    do {                                                                                       \
        struct fi_server *me_ = fi_self;                                                       \
        struct fi_task *t_ = me_ != NULL ? pop_run(me_, call) : NULL;                          \
        f_value v_ = { 0 };                                                                    \
        if (FI_UNLIKELY(t_ == NULL))                                                           \
            t_ = sync_slow(&v_);                                                               \
        return t_ != NULL ? t_->result.member : v_.member;                                     \
    } while (0)

int f_fork_long(f_long_func fn, long i, long j, void *arg)
{
    FI_FORK(call_long, fn, NULL, i, j, arg, 1);
}

long f_sync_long(void)
{
    FI_SYNC(call_long, l);
}

int f_fork_double(f_double_func fn, long i, long j, void *arg)
{
    FI_FORK(call_double, fn, NULL, i, j, arg, 1);
}

double f_sync_double(void)
{
    FI_SYNC(call_double, d);
}

int f_fork_ptr(f_ptr_func fn, long i, long j, void *arg)
{
    FI_FORK(call_ptr, fn, NULL, i, j, arg, 1);
}

void *f_sync_ptr(void)
{
    FI_SYNC(call_ptr, p);
}
