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
 * it is freed when it empties.  Such a thread has no deque: the child's
 * frame is a slot on the stack that holds its words (fi_call), and is not
 * the f_deque_'s bottom, so that every inline fork and sync through it
 * fails, as every one through that bottom does.
 */
static __thread struct {
    f_value *values;
    size_t n, cap;
} outside;

static void fork_outside(unsigned long kind, void (*fn)(void), long i, long j, void *arg)
{
    struct f_task_ frame;
    f_value v = fi_call(kind, fn, &frame, i, j, arg);
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

/*
 * The way in of a typed fork that its inline path leaves to the library on
 * x86-64 (f_ask_typed_fork_, filaments/inline-private.h): its words in the
 * calling server's asked_ slot, and every general register that a callee
 * may clobber (rax, rcx, rdx, rsi, rdi, r8-r11) saved around the call of
 * fi_fork_typed_asked, on a stack aligned for it.  The caller has moved
 * its stack pointer 128 bytes down, past its red zone, before the call:
 * the unwind information below says so (the canonical frame address is
 * 136 bytes above the return address, not 8), so that an unwinder finds
 * the caller's own stack pointer and frame, and it says where each
 * register is saved, so that a debugger shows the caller's values in
 * them; rbp is pushed first and made the frame pointer, so that a walk
 * of frame pointers (a profiler's, AddressSanitizer's) finds the caller
 * too.  Not for the model checker, which takes no assembly
 * (tests/model/model.h): its builds use the C path.
 */
#if defined(__x86_64__) && defined(__ELF__) && !defined(FI_MODEL_CHECK)
__attribute__((used)) void fi_fork_typed_asked(void);
void fi_fork_typed_asked(void)
{
    const struct f_task_ *t = &f_deque_.asked_;
    (void)f_fork_typed_(fi_task_kind(t), fi_task_fn(t), t->i_, t->j_, t->arg_);
}

#if defined(__CET__) && (__CET__ & 1)
#define FI_ENDBR "endbr64\n\t"    /* an indirect call's target, under IBT */
#else
#define FI_ENDBR ""
#endif
__asm__(".text\n\t"
        ".globl f_fork_typed_asked_\n\t"
        ".type f_fork_typed_asked_, @function\n\t"
        ".p2align 4\n"
        "f_fork_typed_asked_:\n\t"
        ".cfi_startproc\n\t"
        ".cfi_def_cfa %rsp, 136\n\t"
        ".cfi_offset %rip, -136\n\t"
        FI_ENDBR
        "push %rbp\n\t"
        ".cfi_adjust_cfa_offset 8\n\t"
        ".cfi_offset %rbp, -144\n\t"
        "mov %rsp, %rbp\n\t"
        ".cfi_def_cfa_register %rbp\n\t"
        "push %rax\n\t"
        ".cfi_offset %rax, -152\n\t"
        "push %rcx\n\t"
        ".cfi_offset %rcx, -160\n\t"
        "push %rdx\n\t"
        ".cfi_offset %rdx, -168\n\t"
        "push %rsi\n\t"
        ".cfi_offset %rsi, -176\n\t"
        "push %rdi\n\t"
        ".cfi_offset %rdi, -184\n\t"
        "push %r8\n\t"
        ".cfi_offset %r8, -192\n\t"
        "push %r9\n\t"
        ".cfi_offset %r9, -200\n\t"
        "push %r10\n\t"
        ".cfi_offset %r10, -208\n\t"
        "push %r11\n\t"
        ".cfi_offset %r11, -216\n\t"
        "and $-16, %rsp\n\t"
        "call fi_fork_typed_asked\n\t"
        "lea -72(%rbp), %rsp\n\t"
        "pop %r11\n\t"
        "pop %r10\n\t"
        "pop %r9\n\t"
        "pop %r8\n\t"
        "pop %rdi\n\t"
        "pop %rsi\n\t"
        "pop %rdx\n\t"
        "pop %rcx\n\t"
        "pop %rax\n\t"
        "pop %rbp\n\t"
        ".cfi_def_cfa %rsp, 136\n\t"
        "ret\n\t"
        ".cfi_endproc\n\t"
        ".size f_fork_typed_asked_, .-f_fork_typed_asked_");
#endif

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
