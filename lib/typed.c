/*
 * typed.c - typed forks [paper §2.3, §4.5, beyond it: children that return
 * a value]: the slow paths of filaments.h's f_fork_long and f_sync_long and
 * their kin, and the typed calls out of line.
 *
 * A typed fork's slot is popped by its sync, in reverse order of forking;
 * untyped children forked after it and not joined yet are joined first.
 * A typed fork pruned in a full deque left its result aside in `pruned`
 * (fork.c), where its sync finds it.  The inlines take their frame at
 * the bottom after each call here, and the slot below a filament's first
 * child is guarded (deque.h) so that no sync through that frame pops a
 * slot of another filament's (doc/design.md, "Whose slots").
 *
 * Owner only: a server's own deque, on its own thread.
 */
#include "forkjoin.h"
#include "state.h"

/*
 * Every sync the inline fast path did not take: a pruned result kept aside,
 * a public slot, untyped children above the typed one (forked after it and
 * not joined yet), or nothing to sync (0).  Only the calling filament's
 * children count: its slots from base up, its pruned results; with none,
 * its parent's typed child stays for the parent's sync.
 */
static f_value sync_slow(struct fi_server *me, unsigned long kind)
{
    f_value none = { 0 };
    struct fi_deque *d = &me->deque;
    struct f_deque_ *o = d->own;
    for (;;) {
        if (d->npruned > 0 && d->pruned[d->npruned - 1].base == fi_base(d) &&
            fi_bottom(d) == d->cap) {
            f_value v = d->pruned[--d->npruned].result;
            fi_forkjoin_bounds(d);
            return v;
        }
        if (o->bottom_ <= o->base_)
            return none;
        unsigned long top_kind = fi_task_kind(o->bottom_ - 1);
        if (top_kind == kind || top_kind == F_KIND_DONE_)
            return fi_forkjoin_pop(me)->result_;
        if (top_kind != F_KIND_VOID_)
            return none;    /* a sync of another type: not this one's */
        fi_forkjoin_pop(me);            /* forked after the typed one, not joined yet */
    }
}

/* The calling server, if it may fork: a server outside its creator. */
static struct fi_server *forking_server(void)
{
    struct fi_server *me = fi_self;
    return me != NULL && !me->creating ? me : NULL;
}

/* The frame the inlines take after a typed fork or sync of the library's,
 * or from f_frame_here: the bottom, guarded where it is the base. */
static void guard_frame(void)
{
    struct fi_server *me = forking_server();
    if (me != NULL)
        fi_deque_guard_base(&me->deque);
}

f_value f_sync_typed_(unsigned long kind)
{
    struct fi_server *me = forking_server();
    f_value none = { 0 };
    if (me == NULL)
        return none;
    f_value v = sync_slow(me, kind);
    guard_frame();
    return v;
}

int f_fork_typed_(unsigned long kind, void (*fn)(void), long i, long j, void *arg)
{
    int rc = fi_forkjoin_fork(kind, fn, NULL, i, j, arg);
    guard_frame();
    return rc;
}

f_frame(f_frame_here)(void)
{
    guard_frame();
    return f_deque_.bottom_;
}

/* The typed calls out of line: the inlines (filaments.h). */
#define FI_TYPED(T, name)                                                                      \
    int(f_fork_##name)(f_frame * fr, f_##name##_func fn, long i, long j, void *arg)            \
    {                                                                                          \
        return f_fork_##name(fr, fn, i, j, arg);                                               \
    }                                                                                          \
    T(f_sync_##name)(f_frame * fr, f_##name##_func fn)                                         \
    {                                                                                          \
        return f_sync_##name(fr, fn);                                                          \
    }
FI_TYPED(long, long)
FI_TYPED(double, double)
FI_TYPED(void *, ptr)
