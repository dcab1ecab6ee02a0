/*
 * fork.c - the forks that the inline fast path did not take: from the main
 * thread (root filaments), in a deque at its bound (a thief's request for
 * work, a new peak), or pruned [paper §2.3, §4.5]; and pruning.  The
 * answer to a thief's request is publish.c's.
 *
 * Pruning: with F_PRUNE_AUTO a fork is a plain call while the server holds
 * FI_PRUNE_DEPTH children already (that no thief has claimed: public or
 * private) and no thief has asked for work; with a threshold N, while it
 * holds more than N; never with 0.  Publishing does not change what the
 * server holds, so answering a thief does not make it fork more.  A pruned
 * fork of f_fork_seq calls the sequential version; before it does, the
 * server publishes its private children, so that thieves find the large,
 * old ones while it runs the pruned subtree.  Typed forks are pruned only
 * in a full deque (their push and inline sync cost no more than a call),
 * but for those with a sequential version (f_fork_long_seq), which are
 * pruned as untyped ones are: the child runs at once and its value waits
 * for its sync in a slot of kind F_KIND_DONE_, or, in a full deque, aside
 * in `pruned`, above every slot, until a join frees a slot for it or its
 * sync takes it.
 *
 * Owner only, or the main thread between runs (roots); thieves only ask,
 * through splitreq and the bounds (deque.c, steal.c).
 */
#include "forkjoin.h"
#include "memory.h"
#include "state.h"
#include "wait.h"

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

/* Raise the peak of live slots to the bottom, if it is a new one. */
static void note_peak(struct fi_deque *d)
{
    if (fi_bottom(d) > d->peak)
        d->peak = fi_bottom(d);
}

/* Push a slot; an untyped fork counts here, a typed one at its pop
 * (struct f_task_). */
static void push_slot(struct fi_deque *d, unsigned long kind, void (*fn)(void), long i, long j,
                      void *arg)
{
    struct f_task_ *t = d->own->bottom_++;
    *t = (struct f_task_){ .word_ = f_word_(kind, fn), .i_ = i, .j_ = j, .arg_ = arg,
                           .forks_ = t->forks_ + (kind == F_KIND_VOID_) };
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

/* Is a fork of this kind, with a sequential version or not, pruned now? */
static int prune_now(const struct fi_deque *d, unsigned long kind, int sequential)
{
    long threshold = fi_prune_threshold();
    size_t held = fi_bottom(d) - fi_deque_oldest_held(d);
    if (fi_bottom(d) == d->cap)
        return 1;
    /* Typed without a sequential version: a push is as cheap (f_fork(3)). */
    if ((kind != F_KIND_VOID_ && !sequential) || threshold == 0)
        return 0;
    if (threshold > 0)
        return held > (size_t)threshold;
    return held >= d->prune_depth && AO_load(&d->splitreq) == 0 &&
           (!sequential || every_server_at_work());
}

/* A pruned subtree that runs without forks answers no thief's request
 * until it is done: leave thieves something first, the private children
 * (publish.c), large and old. */
static void publish_before_sequential(struct fi_server *me)
{
    AO_t ts = AO_load(&me->deque.ts);
    if (fi_lib.nservers > 1 && FI_TS_TOP(ts) >= FI_TS_SPLIT(ts))
        fi_forkjoin_publish(me);
}

/*
 * Keep a typed child's value, run at once, for its sync: in a slot of kind
 * F_KIND_DONE_ at the bottom, which the inline sync takes, or, in a full
 * deque, aside in `pruned` with its forker's base.  Not counted as a
 * pushed fork (stats.c): the fork was pruned.  The first values aside have
 * room from f_initialize; past them, a process with no memory left is
 * stopped with a message, since a typed fork has no error to return
 * (f_fork(3)).
 */
static void keep_value(struct fi_deque *d, f_value v)
{
    if (fi_bottom(d) < d->cap) {
        struct f_task_ *t = d->own->bottom_++;
        t->word_ = f_word_(F_KIND_DONE_, NULL);
        t->result_ = v;
        note_peak(d);
    } else {
        if (fi_grow((void **)&d->pruned, &d->pruned_cap, d->npruned, sizeof *d->pruned) < 0)
            fi_out_of_memory("the value of a typed fork in a full deque");
        d->pruned[d->npruned++] = (struct fi_pruned){ v, fi_base(d) };
    }
    d->own->pruned_++;
    fi_forkjoin_bounds(d);
}

/*
 * Every fork that the inline fast path did not take: from the main thread
 * (a root), a bad argument, a new peak, a full deque, pruning, a thief's
 * request.  F_OK, or for an untyped fork F_EINVAL, F_ESTATE or F_ENOMEM.
 * A pruned child runs here: seq where the fork named one (as a plain call:
 * its forks are calls), else fn as a filament of its own (fi_task_run;
 * in a full deque, its base is the capacity, so that it forks only into
 * kept values too).  The values the child kept and never synced (a
 * program's error) lie above its forker's, from `kept` up: they are
 * dropped first.
 */
static int fork_slow(unsigned long kind, void (*fn)(void), void (*seq)(void), long i, long j,
                     void *arg)
{
    struct fi_server *me = fi_self;
    if (me == NULL)
        return fork_root(fn, i, j, arg);
    if (me->creating)
        return F_ESTATE;    /* not a filament: no parent to join it */
    if (fn == NULL)
        return F_EINVAL;
    struct fi_deque *d = &me->deque;
    fi_forkjoin_answer(me);    /* a thief asked: answer before pruning */
    if (!prune_now(d, kind, seq != NULL)) {
        push_slot(d, kind, fn, i, j, arg);
        if (AO_load(&d->splitreq) != 0)
            fi_forkjoin_publish(me);
        fi_forkjoin_bounds(d);
        return F_OK;
    }
    size_t kept = d->npruned;
    struct f_task_ t = { .word_ = f_word_(kind, fn), .i_ = i, .j_ = j, .arg_ = arg };
    if (seq != NULL) {
        publish_before_sequential(me);
        t.result_ = fi_call(kind, seq, d->own->bottom_, i, j, arg);
    } else {
        fi_task_run(me, &t);
    }
    d->npruned = kept;
    if (kind != F_KIND_VOID_)
        keep_value(d, t.result_);
    else
        d->own->pruned_++;
    return F_OK;
}

/*
 * The inline f_pruning found the bottom at the pruning slot and no thief's
 * request: decide as for a fork with a sequential version, since the
 * caller asks in order to run its subtree as one (f_pruning(3)), and leave
 * thieves something as that fork would.  A stale pruning slot (a thief
 * took held children since it was set) is set again, so that the inline
 * test stops sending the caller here.
 */
int (f_pruning)(void)
{
    struct fi_server *me = fi_self;
    if (me == NULL || me->creating)
        return 0;
    struct fi_deque *d = &me->deque;
    fi_forkjoin_answer(me);
    if (!prune_now(d, F_KIND_VOID_, 1)) {
        fi_forkjoin_bounds(d);
        return 0;
    }
    publish_before_sequential(me);
    return 1;
}

/* A fork with no inline fast path before it: push, or the slow path. */
int fi_forkjoin_fork(unsigned long kind, void (*fn)(void), void (*seq)(void), long i, long j,
                     void *arg)
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
    return fi_forkjoin_fork(F_KIND_VOID_, (void (*)(void))fn, (void (*)(void))seq, i, j, arg);
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
