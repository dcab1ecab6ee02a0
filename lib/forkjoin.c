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
 * (leapfrogging, steal_from) so that waiting never buries the parent under
 * unrelated work.  A filament that returns with children outstanding is
 * joined when it returns.  The common cases are the inline fast paths in
 * filaments.h; this file holds the functions they fall back on, and keeps
 * them off what they cannot do: the bounds of the forks (deque.c), and a mark in
 * the word of each slot that an inline pop must leave to the library
 * (public slots, the slot below a filament's first child where its frame
 * can reach it; design.md, "Fork/join", has the rules and the proof).
 *
 * A typed fork's slot is popped by its sync (typed.c), in reverse order of forking.
 * An untyped join joins every untyped child of the calling filament, also
 * those under a typed slot, and leaves the typed slots, in order, for the
 * syncs to come (join_untyped).  Every child that the library runs is a
 * filament of its own: its children begin at `base`, the bottom as it
 * found it, and its joins and syncs never reach below that.  A typed child
 * that its sync calls inline is a plain call within its caller's filament
 * (design.md, "Whose slots").
 *
 * Pruning: with F_PRUNE_AUTO a fork is a plain call while the server holds
 * FI_PRUNE_DEPTH children already (that no thief has claimed: public or
 * private) and no thief has asked for work; with a threshold N, while it
 * holds more than N; never with 0.  Publishing does not change what the
 * server holds, so answering a thief does not make it fork more.  A pruned
 * fork of f_fork_seq calls the sequential version; before it does, the
 * server publishes its private children, so that thieves find the large,
 * old ones while it runs the pruned subtree.  Typed forks are pruned only
 * in a full deque (their push and inline sync cost no more than a call):
 * the child runs at once and its result goes aside in `pruned`, above
 * every slot, until a join frees a slot for it (a slot of kind
 * F_KIND_DONE_) or its sync takes it.
 *
 * The stacks: a chain of n nested forks recurses through the joins on a
 * server's stack, about 200 bytes a level (f_fork(3)); FI_STACK_BYTES
 * (64 MiB) holds some 300 000 levels.
 */
#include <sched.h>
#include <string.h>

#include "forkjoin.h"
#include "steal.h"
#include "lock.h"
#include "memory.h"
#include "state.h"
#include "wait.h"

/* ------------------------------------------------------------------ run */

static void join_to(struct fi_server *me, size_t base);
static void join_untyped(struct fi_server *me, size_t base);

/*
 * Run a slot (or a thief's copy of one) here, whatever its kind, as a
 * filament of its own: its children begin at the bottom of the deque as it
 * finds it (`base`), so its joins and syncs reach its own children and none
 * of whoever runs it (its parent, or the filament a leapfrogging server is
 * waiting in), and the untyped children it leaves unjoined are joined as it
 * returns, here, before anything below them is touched.  The result goes
 * into *t last: the slot itself may have been reused by those children.
 */
void fi_task_run(struct fi_server *me, struct f_task_ *t)
{
    struct f_deque_ *o = me->deque.own;
    f_value r = { 0 };
    unsigned long kind = fi_task_kind(t);
    if (kind == F_KIND_DONE_)
        return;    /* a pruned typed fork: its result is there */
    struct f_task_ *saved = o->base_;
    o->base_ = o->bottom_;
    int guarded = fi_deque_guard_base(&me->deque);
    void (*fn)(void) = fi_task_fn(t);
    long i = t->i_, j = t->j_;
    void *arg = t->arg_;
    switch (kind) {
    case F_KIND_LONG_: r.l = ((f_long_func)fn)(o->base_, i, j, arg); break;
    case F_KIND_DOUBLE_: r.d = ((f_double_func)fn)(o->base_, i, j, arg); break;
    case F_KIND_PTR_: r.p = ((f_ptr_func)fn)(o->base_, i, j, arg); break;
    default: ((f_func)fn)(i, j, arg); break;
    }
    if (o->bottom_ != o->base_)
        join_untyped(me, fi_base(&me->deque));
    /* Still private (no pop of ours took back a slot below base, so it was
     * private throughout), and so ours to unmark. */
    if (guarded && fi_base(&me->deque) - 1 >= me->deque.split)
        fi_task_unmark(o->base_ - 1);
    o->base_ = saved;
    if (kind != F_KIND_VOID_)
        t->result_ = r;
}

/*
 * Claim the victim's oldest public slot and run it here, on this stack and
 * deque, as a filament of its own; then write the result into the
 * victim's slot and release `done`, which the parent's join acquires.
 * 1 if a filament ran.
 */
static int steal_from(struct fi_server *me, struct fi_server *victim)
{
    struct f_task_ *slot = fi_steal_claim(me, victim);
    if (slot == NULL)
        return 0;
    struct f_task_ t = { .word_ = slot->word_, .i_ = slot->i_, .j_ = slot->j_,
                         .arg_ = slot->arg_, .result_ = slot->result_ };
    unsigned long start = fi_clock_ns();
    fi_task_run(me, &t);
    AO_fetch_and_add(&victim->deque.stolen_ns, fi_clock_ns() - start);
    AO_fetch_and_add1(&victim->deque.stolen_pieces);
    slot->result_ = t.result_;
    me->stats.steals++;
    me->deque.taken++;
    /* Release: the result before the flag; pairs with wait_done. */
    AO_store_release(fi_task_done(slot), 1);
    return 1;
}

/* Steal one filament from some other server, starting at a random victim;
 * ask every victim with nothing public for more.  1 if one ran. */
int fi_forkjoin_help(struct fi_server *me)
{
    int n = fi_lib.nservers;
    me->steal_seed = me->steal_seed * 1103515245u + 12345u;
    int start = (int)((me->steal_seed >> 16) % (unsigned)n);
    for (int k = 0; k < n; ++k) {
        struct fi_server *victim = &fi_lib.servers[(start + k) % n];
        if (victim != me && steal_from(me, victim))
            return 1;
    }
    return 0;
}

/* Ask every other server with no public fork/join work for some. */
void fi_forkjoin_ask(struct fi_server *me)
{
    for (int k = 0; k < fi_lib.nservers; ++k) {
        AO_t ts = AO_load(&fi_lib.servers[k].deque.ts);
        if (k != me->index && FI_TS_TOP(ts) >= FI_TS_SPLIT(ts))
            fi_steal_request(&fi_lib.servers[k]);
    }
}

/* Wait for a thief to finish a slot, helping it meanwhile.  The slot
 * stays marked done (and stolen) for the pop that drops it.  The wait is
 * idle time, less the filaments run for the thief meanwhile. */
static void wait_done(struct fi_server *me, struct f_task_ *slot)
{
    unsigned spins = 0;
    unsigned long idle_from = fi_idle_clock_ns();
    /* Acquire: the thief's result; pairs with the release in steal_from. */
    while (!AO_load_acquire(fi_task_done(slot))) {
        AO_t thief = AO_load(fi_task_thief(slot));
        if (thief != 0) {
            unsigned long now = fi_idle_clock_ns();
            if (steal_from(me, &fi_lib.servers[thief - 1])) {
                me->stats.idle_ns += now - idle_from;
                idle_from = fi_idle_clock_ns();
                continue;
            }
        }
        if (++spins < FI_SPIN_POLLS)
            fi_cpu_relax();
        else
            sched_yield();
    }
    me->stats.idle_ns += fi_idle_clock_ns() - idle_from;
}

/* Wait for a stolen slot, then clear it for reuse. */
static void wait_stolen(struct fi_server *me, struct f_task_ *slot)
{
    wait_done(me, slot);
    AO_store(fi_task_done(slot), 0);
    AO_store(fi_task_thief(slot), 0);
}

/*
 * Pop the newest slot and see it done: run it if it is private or can be
 * taken back from the public part, or wait for the thief that has it.
 * Returns the slot, whose result is valid until the next fork.
 */
struct f_task_ *fi_forkjoin_pop(struct fi_server *me)
{
    struct fi_deque *d = &me->deque;
    struct f_deque_ *o = d->own;
    size_t b = fi_bottom(d) - 1;
    struct f_task_ *slot = &o->slot_[b];
    if (b >= d->split) {
        o->bottom_ = slot;
        fi_task_run(me, slot);
        return slot;
    }
    for (;;) {
        AO_t ts = AO_load(&d->ts);
        size_t top = FI_TS_TOP(ts);
        if (top <= b) {
            /* Still public: take it back by moving split down to it.
             * A thief's claim changes ts, so at most one of us wins. */
            if (!AO_compare_and_swap_full(&d->ts, ts, FI_TS(top, b)))
                continue;
            d->split = b;
            o->bottom_ = slot;
            fi_forkjoin_bounds(d);
            fi_task_run(me, slot);
            return slot;
        }
        /* Stolen: top == split == b + 1.  Keep b below our bottom until the
         * thief has written into it, then drop it and lower top and split. */
        wait_stolen(me, slot);
        d->lost++;
        d->split = b;
        o->bottom_ = slot;
        AO_store(&d->ts, FI_TS(b, b));
        fi_forkjoin_bounds(d);
        return slot;
    }
}

/* Pop everything down to base, typed slots included (their results are
 * dropped): the end of a run. */
static void join_to(struct fi_server *me, size_t base)
{
    while (fi_bottom(&me->deque) > base)
        fi_forkjoin_pop(me);
}

/* The oldest pruned typed result that the filament whose children begin at
 * `base` made, or npruned if there is none. */
static size_t oldest_pruned(const struct fi_deque *d, size_t base)
{
    size_t k = d->npruned;
    while (k > 0 && d->pruned[k - 1].base == base)
        --k;
    return k;
}

/*
 * Take the private untyped slot v out from under the typed slots above it
 * and run it.  The typed slots move down one, in order; where the deque was
 * full, the room at the top goes to the oldest of the calling filament's
 * pruned typed results, which are newer than every slot.
 */
static void remove_private(struct fi_server *me, size_t v, size_t base)
{
    struct fi_deque *d = &me->deque;
    struct f_deque_ *o = d->own;
    struct f_task_ t = o->slot_[v];
    /* The slots' fork counts move with them: the sum loses v's and counts
     * the top one's twice, which forks_moved makes up for (stats.c). */
    d->forks_moved += t.forks_ - o->bottom_[-1].forks_;
    memmove(&o->slot_[v], &o->slot_[v + 1], (fi_bottom(d) - v - 1) * sizeof *o->slot_);
    o->bottom_--;
    size_t k = oldest_pruned(d, base);
    if (k < d->npruned) {
        struct f_task_ *s = o->bottom_++;
        s->word_ = f_word_(F_KIND_DONE_, NULL);
        s->result_ = d->pruned[k].result;
        memmove(&d->pruned[k], &d->pruned[k + 1], (d->npruned - k - 1) * sizeof *d->pruned);
        d->npruned--;
    }
    fi_forkjoin_bounds(d);
    fi_task_run(me, &t);
}

/*
 * Join the untyped children of the filament whose children begin at base
 * (f_fork(3)): every one, also those forked before a typed fork that is
 * still to be synced.  Untyped slots on top are popped; one under typed
 * slots is taken out from under them if it is private (after taking it
 * back if it is public), or, if a thief has it, waited for and left in
 * place, marked done, for the pop that later drops it.  The typed slots
 * stay, in order, for their syncs.
 */
static void join_untyped(struct fi_server *me, size_t base)
{
    struct fi_deque *d = &me->deque;
    struct f_deque_ *o = d->own;
    size_t k = fi_bottom(d);    /* [k, bottom): typed, or untyped and done */
    while (k > base) {
        struct f_task_ *s = &o->slot_[k - 1];
        if (fi_task_kind(s) != F_KIND_VOID_) {
            --k;
            continue;
        }
        if (k == fi_bottom(d) && oldest_pruned(d, base) == d->npruned) {
            fi_forkjoin_pop(me);
            k = fi_bottom(d);
            continue;
        }
        size_t v = k - 1;
        if (v >= d->split) {
            remove_private(me, v, base);
            k = v;
            continue;
        }
        AO_t ts = AO_load(&d->ts);
        if (FI_TS_TOP(ts) <= v) {
            /* Public: take [v, split) back, as pop does for one slot, and
             * take their marks off: no thief reads them now. */
            if (AO_compare_and_swap_full(&d->ts, ts, FI_TS(FI_TS_TOP(ts), v))) {
                for (size_t k = v; k < d->split; ++k)
                    fi_task_unmark(&o->slot_[k]);
                d->split = v;
                fi_forkjoin_bounds(d);
            }
            continue;
        }
        wait_done(me, s);    /* stolen: every slot below top stays stolen until popped */
        k = v;
    }
}

int fi_forkjoin_drain_held(struct fi_server *me)
{
    struct fi_deque *d = &me->deque;
    join_to(me, 0);
    d->npruned = 0;    /* typed forks never synced (a program's error) */
    fi_forkjoin_bounds(d);
    return 1;
}

int (f_join)(void)
{
    struct fi_server *me = fi_self;
    if (me == NULL || me->creating || fi_locks_held())
        return F_ESTATE;
    join_untyped(me, fi_base(&me->deque));
    return F_OK;
}

/* ----------------------------------------------------------------- fork */

void f_set_prune(long threshold)
{
    AO_store(&fi_lib.prune, (AO_t)(threshold < 0 ? F_PRUNE_AUTO : threshold));
    if (fi_self != NULL)
        fi_forkjoin_bounds(&fi_self->deque);
}

long f_get_prune(void)
{
    return fi_prune_threshold();
}

/* Owner: make half of the private slots public (at least one).  Not in
 * barrier code, which runs alone, children included (f_fork(3)): the
 * others wait at the barrier, where they could steal. */
static void publish(struct fi_server *me)
{
    struct fi_deque *d = &me->deque;
    size_t private = fi_bottom(d) - d->split;
    if (private == 0 || me->in_barrier)
        return;    /* leave the request standing for the next fork */
    size_t split = d->split + (private + 1) / 2;
    for (size_t k = d->split; k < split; ++k)
        fi_task_mark(&d->own->slot_[k]);    /* no inline pop takes a public slot */
    AO_t ts = AO_load(&d->ts);
    /* Full: the slots before the new split, marks and all, to a thief's acquiring CAS;
     * and our store of ts before our look at the sleepers. */
    while (!AO_compare_and_swap_full(&d->ts, ts, FI_TS(FI_TS_TOP(ts), split)))
        ts = AO_load(&d->ts);
    d->split = split;
    AO_store(&d->splitreq, 0);
    fi_forkjoin_bounds(d);
    if (AO_load(&fi_lib.servers_wait.sleepers) != 0)
        fi_wake_all(&fi_lib.servers_wait);
}

/*
 * F_PRUNE_AUTO's depth, at a thief's request.  A thief that asks again
 * soon after the last request found little in what it took: the children
 * this server held were small pieces (an unbalanced tree's, most of them
 * leaves), and each request costs both servers a round trip.  So hold
 * twice as many, up to the whole deque, that thieves find a choice of
 * pieces public without asking (some of an unbalanced tree's are large).
 * But only while what the thieves took from here ran FI_PRUNE_WORTH_NS
 * or more per piece on average (they time each): where every piece is
 * tiny (a loop of small forks), more of them only make more steals, each
 * dearer than the piece, and the depth halves instead.  The average is
 * of the pieces themselves, not of the run's time per piece published,
 * which the many leaves that a shallow depth hands out on a deep tree
 * kept low: the depth then only halved (uts's binomial tree, untyped,
 * at 2 servers: one run in three took 2.4 times as long, with 200 000
 * steals).  A thief that asks only long after found plenty: halve it
 * too, down to FI_PRUNE_DEPTH, and prune more.  The run's first request
 * is no sign either way: every thief asks at a start.
 */
static void adapt_depth(struct fi_deque *d)
{
    unsigned long now = fi_clock_ns(), since = now - d->answered_ns;
    int worth = AO_load(&d->stolen_ns) >= FI_PRUNE_WORTH_NS * AO_load(&d->stolen_pieces);
    if (d->answered_ns != 0 && since < FI_PRUNE_QUICK_NS && worth)
        d->prune_depth = d->prune_depth < d->cap / 2 ? d->prune_depth * 2 : d->cap;
    else if ((since > FI_PRUNE_SLOW_NS || !worth) && d->prune_depth / 2 >= FI_PRUNE_DEPTH)
        d->prune_depth /= 2;
    d->answered_ns = now;
}

/* Raise the peak of live slots to the bottom, if it is a new one. */
static void note_peak(struct fi_deque *d)
{
    if (fi_bottom(d) > d->peak)
        d->peak = fi_bottom(d);
}

static void push_slot(struct fi_deque *d, unsigned long kind, void (*fn)(void), long i, long j,
                      void *arg)
{
    struct f_task_ *t = d->own->bottom_++;
    *t = (struct f_task_){ .word_ = f_word_(kind, fn), .i_ = i, .j_ = j, .arg_ = arg,
                           .forks_ = t->forks_ + 1 };
    note_peak(d);
}

/* A fork from the main thread between runs: a root filament, public at once. */
static int fork_root(void (*fn)(void), long i, long j, void *arg)
{
    if (fi_check_main_between_runs() < 0)
        return F_ESTATE;
    if (fn == NULL)
        return F_EINVAL;
    struct fi_deque *d = &fi_lib.servers[fi_lib.any_next++ % (unsigned)fi_lib.nservers].deque;
    if (fi_bottom(d) == d->cap)
        return F_ENOMEM;
    push_slot(d, F_KIND_VOID_, fn, i, j, arg);
    fi_task_mark(d->own->bottom_ - 1);    /* public */
    d->split = fi_bottom(d);
    AO_store(&d->ts, FI_TS(0, d->split));
    return F_OK;
}

/*
 * Has every server had work in this run?  Until then nothing is pruned to a
 * sequential version: the others are still waking up or taking their first
 * piece, and a subtree pruned near the root before they have work is a
 * piece that nobody can split (quad's skewed tree: one of 2 servers idle
 * 180-208 ms of a 0.30 s run, in about one run of three).  An
 * oversubscribed machine may take milliseconds to schedule them all, and a
 * small tree may have no work for some, so the wait ends after
 * FI_START_WAIT_NS whatever.
 */
static int every_server_at_work(void)
{
    return AO_load(&fi_lib.unstarted) == 0 ||
           fi_clock_ns() - fi_lib.run_posted_ns >= FI_START_WAIT_NS;
}

static int prune_now(const struct fi_deque *d, unsigned long kind, f_func seq)
{
    long threshold = fi_prune_threshold();
    size_t held = fi_bottom(d) - fi_deque_oldest_held(d);
    if (fi_bottom(d) == d->cap)
        return 1;
    if (kind != F_KIND_VOID_ || threshold == 0)    /* typed: a push is as cheap (f_fork(3)) */
        return 0;
    if (threshold > 0)
        return held > (size_t)threshold;
    return held >= d->prune_depth && AO_load(&d->splitreq) == 0 &&
           (seq == NULL || every_server_at_work());
}

/* Room for one more pruned typed result: F_OK or F_ENOMEM. */
static int reserve_pruned(struct fi_deque *d)
{
    if (d->npruned < d->pruned_cap)
        return F_OK;
    size_t n = d->pruned_cap ? d->pruned_cap * 2 : 64;
    struct fi_pruned *p = fi_realloc(d->pruned, n * sizeof *p);
    if (p == NULL)
        return F_ENOMEM;
    d->pruned = p;
    d->pruned_cap = n;
    return F_OK;
}

/*
 * A typed fork pruned in a full deque: run the child here, as a filament of
 * its own (its base is the capacity, so it forks only into kept results
 * too), then keep its result aside with its forker's base, for the sync.
 * The results the child kept and never synced (a program's error) lie
 * above the forker's own, from `kept` up: they are dropped first.  Room for
 * one more was reserved by fork_slow; the child's own forks only grow it.
 */
static void run_pruned_typed(struct fi_server *me, struct f_task_ *t)
{
    struct fi_deque *d = &me->deque;
    size_t kept = d->npruned;
    fi_task_run(me, t);
    d->npruned = kept;
    d->pruned[d->npruned++] = (struct fi_pruned){ t->result_, fi_base(d) };
    d->own->pruned_++;
    fi_forkjoin_bounds(d);
}

/*
 * Every fork that the inline fast path did not take: from the main thread
 * (a root), a bad argument, a new peak, a full deque, pruning, a thief's
 * request.  F_OK, F_EINVAL, F_ESTATE or F_ENOMEM.
 */
static int fork_slow(unsigned long kind, void (*fn)(void), f_func seq, long i, long j, void *arg)
{
    struct fi_server *me = fi_self;
    if (me == NULL)
        return kind != F_KIND_VOID_ ? F_ESTATE : fork_root(fn, i, j, arg);
    if (me->creating)
        return F_ESTATE;    /* not a filament: no parent to join it */
    if (fn == NULL)
        return F_EINVAL;
    struct fi_deque *d = &me->deque;
    if (AO_load(&d->splitreq) != 0) {
        adapt_depth(d);
        publish(me);    /* a thief asked: answer before pruning */
    }
    if (!prune_now(d, kind, seq)) {
        push_slot(d, kind, fn, i, j, arg);
        if (AO_load(&d->splitreq) != 0)
            publish(me);
        fi_forkjoin_bounds(d);
        return F_OK;
    }
    if (seq != NULL) {
        /* A pruned subtree runs without forks, so no thief's request gets
         * an answer until it is done: leave thieves something first. */
        AO_t ts = AO_load(&d->ts);
        if (fi_lib.nservers > 1 && FI_TS_TOP(ts) >= FI_TS_SPLIT(ts))
            publish(me);
        d->own->pruned_++;
        seq(i, j, arg);
        return F_OK;
    }
    if (kind != F_KIND_VOID_ && reserve_pruned(d) < 0)    /* typed: the deque is full */
        return F_ENOMEM;
    struct f_task_ t = { .word_ = f_word_(kind, fn), .i_ = i, .j_ = j, .arg_ = arg };
    if (kind != F_KIND_VOID_) {
        run_pruned_typed(me, &t);
        return F_OK;
    }
    fi_task_run(me, &t);
    d->own->pruned_++;
    return F_OK;
}

/* A fork with no inline fast path before it: push, or the slow path. */
int fi_forkjoin_fork(unsigned long kind, void (*fn)(void), f_func seq, long i, long j, void *arg)
{
    struct f_deque_ *d = &f_deque_;
    if (f_push_(d, d->bottom_, kind, fn, i, j, arg) == F_PUSHED_)
        return F_OK;
    return fork_slow(kind, fn, seq, i, j, arg);
}

int (f_fork)(f_func fn, long i, long j, void *arg)
{
    return fi_forkjoin_fork(F_KIND_VOID_, (void (*)(void))fn, NULL, i, j, arg);
}

int f_fork_seq(f_func fn, f_func seq, long i, long j, void *arg)
{
    if (seq == NULL)
        return fi_self == NULL && fi_check_main_between_runs() < 0 ? F_ESTATE : F_EINVAL;
    return fi_forkjoin_fork(F_KIND_VOID_, (void (*)(void))fn, seq, i, j, arg);
}

/*
 * A typed root (f_run_long): the untyped root filament `typed_root` runs
 * the typed function's slot, a copy on the main thread's stack, as a
 * filament of its own with a frame at its base, as a thief runs a stolen
 * typed slot; its value stays in the copy, which the main thread reads
 * once f_parallel returns.  The root's own slot could not keep it: the
 * filaments that run after the root on its server reuse the slot.
 */
static void typed_root(long unused, long unused2, void *task)
{
    fi_task_run(fi_self, task);
}

int fi_forkjoin_root_typed(struct f_task_ *t)
{
    return fork_root((void (*)(void))typed_root, 0, 0, t);
}
