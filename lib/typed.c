/*
 * typed.c - typed forks [paper §2.3, §4.5, beyond it: children that return
 * a value]: the slow paths of filaments.h's f_fork_long and f_sync_long and
 * their kin, and the typed calls out of line.
 *
 * A typed fork's slot is popped by its sync, in reverse order of forking;
 * untyped children forked after it and not joined yet are joined first.
 * A typed fork pruned in a full deque left its result aside in `pruned`
 * (fork.c), where its sync finds it.  With fn not NULL a typed fork
 * cannot fail: outside a filament its child runs at once, as a call.  The inlines take their frame at
 * the bottom after each call here, and the slot below a filament's first
 * child is guarded (deque.h) so that no sync through that frame pops a
 * slot of another filament's (doc/design.md, "Whose slots").
 *
 * Owner only: a server's own deque, on its own thread.
 */
#include "forkjoin.h"
#include "memory.h"
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

/*
 * Outside a filament (the main thread, another thread, a server's creator)
 * a typed fork runs its child at once, as a plain call, and its sync
 * returns the value: a typed function called there is its own sequential
 * program, and a fork never has a failure to report (f_fork(3)).  The
 * values wait for their syncs in the thread's own stack, newest on top;
 * it is freed when it empties.  Such a thread has no deque: its frame is
 * its f_deque_'s bottom, on which every inline fast path fails.
 */
static __thread struct {
    f_value *values;
    size_t n, cap;
} outside;

static void fork_outside(unsigned long kind, void (*fn)(void), long i, long j, void *arg)
{
    f_value v = fi_call(kind, fn, f_deque_.bottom_, i, j, arg);
    if (fi_grow((void **)&outside.values, &outside.cap, outside.n, sizeof *outside.values) < 0)
        fi_out_of_memory("the value of a typed fork outside a filament");
    outside.values[outside.n++] = v;
}

static f_value sync_outside(void)
{
    f_value v = { 0 };
    if (outside.n > 0)
        v = outside.values[--outside.n];
    if (outside.n == 0) {
        fi_free(outside.values);
        outside.values = NULL;
        outside.cap = 0;
    }
    return v;
}

f_value f_sync_typed_(unsigned long kind)
{
    struct fi_server *me = forking_server();
    if (me == NULL)
        return sync_outside();
    f_value v = sync_slow(me, kind);
    guard_frame();
    return v;
}

int f_fork_typed_seq_(unsigned long kind, void (*fn)(void), void (*seq)(void), long i, long j,
                      void *arg)
{
    if (fn == NULL)
        return F_EINVAL;
    if (forking_server() == NULL) {
        fork_outside(kind, seq != NULL ? seq : fn, i, j, arg);
        return F_OK;
    }
    (void)fi_forkjoin_fork(kind, fn, seq, i, j, arg);    /* F_OK: fn is not NULL */
    guard_frame();
    return F_OK;
}

int f_fork_typed_(unsigned long kind, void (*fn)(void), long i, long j, void *arg)
{
    return f_fork_typed_seq_(kind, fn, NULL, i, j, arg);
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
    int(f_fork_##name##_seq)(f_frame * fr, f_##name##_func fn, f_##name##_func seq, long i,    \
                             long j, void *arg)                                                \
    {                                                                                          \
        return f_fork_##name##_seq(fr, fn, seq, i, j, arg);                                    \
    }                                                                                          \
    T(f_sync_##name)(f_frame * fr, f_##name##_func fn)                                         \
    {                                                                                          \
        return f_sync_##name(fr, fn);                                                          \
    }
FI_TYPED(long, long)
FI_TYPED(double, double)
FI_TYPED(void *, ptr)
