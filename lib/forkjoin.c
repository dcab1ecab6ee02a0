/*
 * forkjoin.c - fork/join filaments: running a slot, helper-join, and the
 * kind's part of the run [paper §2.3, §4.5].
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
 * filaments.h; this file holds the joins they fall back on (fork.c the
 * forks, typed.c the syncs), and keeps them off what they cannot do: the
 * bounds of the forks (deque.c), and a mark in the word of each slot that
 * an inline pop must leave to the library (public slots, the slot below
 * a filament's first child where its frame can reach it; design.md,
 * "Fork/join", has the rules and the proof).
 *
 * A typed fork's slot is popped by its sync, in reverse order of forking.
 * An untyped join joins every untyped child of the calling filament, also
 * those under a typed slot, and leaves the typed slots, in order, for the
 * syncs to come (join_untyped).  Every child that the library runs is a
 * filament of its own: its children begin at `base`, the bottom as it
 * found it, and its joins and syncs never reach below that.  A typed child
 * that its sync calls inline is a plain call within its caller's filament
 * (design.md, "Whose slots").
 *
 * The stacks: a chain of n nested forks recurses through the joins on a
 * server's stack, about 200 bytes a level (f_fork(3)); FI_STACK_BYTES
 * (64 MiB) holds some 300 000 levels.  A chain of typed forks that each go
 * through the library (a full deque: FILAMENTS_DEQUE=2, 3 servers) nests
 * about 600 bytes a level, some 110 000 levels, since the fork's way in
 * on x86-64 skips the caller's red zone and saves nine registers
 * (f_fork_typed_asked_, typed.c); 200 000 levels before it (December
 * 2026).
 */
#include <sched.h>
#include <string.h>

#include "forkjoin.h"
#include "steal.h"
#include "lock.h"
#include "state.h"
#include "trace.h"
#include "wait.h"

/* ------------------------------------------------------------------ run */

static void join_to(struct fi_server *me, size_t base);
static void join_untyped(struct fi_server *me, size_t base);

/* A typed function finds its words in its frame too, where its sync's
 * direct call leaves them (the slot it pops is the child's frame), and
 * reads them there if it is a task (filaments/inline-private.h,
 * F_TASK_SLOT_): so every caller leaves them there.  The frame is a
 * free slot of the caller's: the bottom, or a slot of its own outside a
 * filament (typed.c); the deque has one slot above its capacity for a
 * child run at the bottom of a full deque (deque.c). */
f_value fi_call(unsigned long kind, void (*fn)(void), struct f_task_ *frame, long i, long j,
                void *arg)
{
    f_value r = { 0 };
    if (kind != F_KIND_VOID_) {
        frame->j_ = j;
        frame->i_ = i;
        frame->arg_ = arg;
    }
    switch (kind) {
    case F_KIND_LONG_: r.l = ((f_long_func)fn)(frame, i, j, arg); break;
    case F_KIND_DOUBLE_: r.d = ((f_double_func)fn)(frame, i, j, arg); break;
    case F_KIND_PTR_: r.p = ((f_ptr_func)fn)(frame, i, j, arg); break;
    default: ((f_func)fn)(i, j, arg); break;
    }
    return r;
}

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
    r = fi_call(kind, fi_task_fn(t), o->base_, t->i_, t->j_, t->arg_);
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
    /* A pruned child's kept value (F_KIND_DONE_) is no filament: taking
     * it runs nothing, and counts nothing (nor does the owner's pop). */
    if (fi_task_kind(&t) != F_KIND_DONE_) {
        unsigned long start = fi_clock_ns();
        fi_task_run(me, &t);
        unsigned long end = fi_clock_ns();
        if (end - start >= FI_PRUNE_WORTH_NS)
            AO_fetch_and_add1(&victim->deque.stolen_big);
        AO_fetch_and_add1(&victim->deque.stolen_pieces);
        if (FI_UNLIKELY(me->trace != NULL))
            fi_trace_add(me->trace, FI_TRACE_STEAL, start, end, victim->index, 1, 0, 0);
        me->stats.steals++;
        me->deque.taken++;
    }
    slot->result_ = t.result_;
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
    long helped = 0;
    unsigned long start = fi_trace_now(me->trace);
    unsigned long idle_from = fi_idle_clock_ns();
    /* Acquire: the thief's result; pairs with the release in steal_from. */
    while (!AO_load_acquire(fi_task_done(slot))) {
        AO_t thief = AO_load(fi_task_thief(slot));
        if (thief != 0) {
            unsigned long now = fi_idle_clock_ns();
            if (steal_from(me, &fi_lib.servers[thief - 1])) {
                me->stats.idle_ns += now - idle_from;
                idle_from = fi_idle_clock_ns();
                ++helped;
                continue;
            }
        }
        if (++spins < FI_SPIN_POLLS)
            fi_cpu_relax();
        else
            sched_yield();
    }
    me->stats.idle_ns += fi_idle_clock_ns() - idle_from;
    fi_trace_span(me->trace, FI_TRACE_JOIN_WAIT, start, (long)AO_load(fi_task_thief(slot)) - 1,
                  helped, 0, 0);
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
    unsigned long kind = fi_task_kind(slot);
    /* A typed fork counts as its slot is popped, as the inline sync counts
     * it (struct f_task_); a pruned one's kept value counted as pruned. */
    slot->forks_ += kind != F_KIND_VOID_ && kind != F_KIND_DONE_;
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
             * A thief's claim changes ts, so at most one of us wins.
             * Full, though only the CAS's atomicity is needed: the slot
             * is ours as we wrote it, and a thief reads a slot only after
             * its own CAS, which the change of ts makes fail.  So no check
             * can catch a weaker one (doc/model-check.md, pop-full); on
             * x86 every CAS is the same instruction. */
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
        d->lost += kind != F_KIND_DONE_;
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
        fi_forkjoin_answer(me);
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
             * take their marks off: no thief reads them now.  Full, where
             * atomicity would do, as in fi_forkjoin_pop (join-full). */
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
