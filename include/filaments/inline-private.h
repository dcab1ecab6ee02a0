/*
 * filaments/inline-private.h - the inline fast paths of <filaments.h> and the
 * private structures they need.
 *
 * NOT an interface: include <filaments.h>, which includes this at its end.
 * Everything here may change with the library's soname; every name but the
 * macros of the public calls' own names ends in an underscore.  A program
 * reaches it only through those calls (f_rtc_thread, f_iterative_thread,
 * f_fork, f_join, the typed forks and syncs, f_reduce and
 * f_reduction_local), which the macros below make inline, as <stdio.h>
 * makes getc; each falls back on the library function of the same name,
 * `(f_fork)(...)`, which is also what a pointer to the call reaches
 * (doc/design.md, "Inline fast paths in the public header").
 */
#ifndef FILAMENTS_INLINE_PRIVATE_H
#define FILAMENTS_INLINE_PRIVATE_H

#ifndef FILAMENTS_H
#error "include <filaments.h>, not <filaments/inline-private.h>"
#endif

/* ---------------------------------------------- run-to-completion [§2.1] */

/*
 * The creation fast path, inline (as putc is): from the main thread between
 * runs, or from a server's creator for its own server (f_create_per_server),
 * a filament for a named server is four stores into that server's
 * queue and a bump of its cursor [paper §4.3].  Everything else goes to the
 * library's f_rtc_thread.  The types and variables below are private to the
 * library.
 */
struct f_desc_ {
    f_func fn_;
    long i_;
    long j_;
    void *arg_;
};

/* A server's cursor: the next free slot of its last queue chunk and the
 * chunk's end, while the main thread may create through it; both NULL
 * otherwise (before f_initialize, during a run, past the last server). */
struct f_rtc_cursor_ {
    struct f_desc_ *next_;
    struct f_desc_ *end_;
};

#define F_RTC_CURSORS_ 1024   /* the most servers f_initialize accepts */
extern F_API struct f_rtc_cursor_ f_rtc_cursors_[F_RTC_CURSORS_];

/* While a server runs its creator (f_create_per_server), the cursors above
 * are closed and the server creates through its own, in thread-local
 * storage, which no other thread can reach: server_ is its index, rtc_ its
 * RTC cursor and last_run_ its last run in the current phase (the
 * iterative fast path below).  Elsewhere server_ is -1 and both are NULL. */
struct f_run_;
struct f_creator_ {
    struct f_rtc_cursor_ rtc_;
    struct f_run_ *last_run_;
    int server_;
};
#if defined(__GNUC__)
extern F_API __thread struct f_creator_ f_creator_ __attribute__((tls_model("initial-exec")));
#else
extern F_API _Thread_local struct f_creator_ f_creator_;
#endif

static inline int f_rtc_put_(struct f_rtc_cursor_ *c, struct f_desc_ *d, f_func fn, long i,
                             long j, void *arg)
{
    d->fn_ = fn;
    d->i_ = i;
    d->j_ = j;
    d->arg_ = arg;
    c->next_ = d + 1;
    return 0;
}

/* The main thread's cursor first, so that its path is what it was; a
 * creating server's own cursor after it. */
static inline int f_rtc_thread_inline_(int server, f_func fn, long i, long j, void *arg)
{
    if ((unsigned)server < F_RTC_CURSORS_ && fn != (f_func)0) {
        struct f_rtc_cursor_ *c = &f_rtc_cursors_[server];
        struct f_desc_ *d = c->next_;
        if (d < c->end_)
            return f_rtc_put_(c, d, fn, i, j, arg);
        c = &f_creator_.rtc_;
        d = c->next_;
        if (server == f_creator_.server_ && d < c->end_)
            return f_rtc_put_(c, d, fn, i, j, arg);
    }
    return (f_rtc_thread)(server, fn, i, j, arg);
}
#define f_rtc_thread(server, fn, i, j, arg) f_rtc_thread_inline_((server), (fn), (i), (j), (arg))

/* ------------------------------------------------ iterative [§2.2, §4.4] */

/*
 * The creation fast path, inline: from the main thread between runs, or
 * from a server's creator for its own server, a filament that extends the
 * run last created on its server (same fn, i and arg, the next j) is one
 * store.  The rest goes to the library.
 */
struct f_run_ {
    f_func fn_;
    void *arg_;
    long i_;
    long j_first_;
    long j_last_;
};

/* Per server, the current phase's last run (or NULL); how many of them may
 * be used now: f_num_servers() between runs, else 0.  Private. */
extern F_API struct f_run_ **f_iter_last_;
extern F_API unsigned f_iter_open_;

static inline int f_iterative_thread_inline_(int server, f_func fn, long i, long j, void *arg)
{
    struct f_run_ *r = (struct f_run_ *)0;
    if ((unsigned)server < f_iter_open_)
        r = f_iter_last_[server];
    else if (server == f_creator_.server_)    /* a creating server's own (f_creator_) */
        r = f_creator_.last_run_;
    if (r != (struct f_run_ *)0 && r->fn_ == fn && r->i_ == i && r->arg_ == arg &&
        r->j_last_ != LONG_MAX && j == r->j_last_ + 1) {
        r->j_last_ = j;
        return 0;
    }
    return (f_iterative_thread)(server, fn, i, j, arg);
}
#define f_iterative_thread(server, fn, i, j, arg)                                              \
    f_iterative_thread_inline_((server), (fn), (i), (j), (arg))

/* ------------------------------------------------ fork/join [§2.3, §4.5] */

/*
 * The fork/join fast paths, inline (as getc is): a fork writes a slot of
 * the calling server's deque, a join or sync pops one and calls it.  What
 * they cannot decide they leave to the library.  The types and variables
 * below are the library's private state: programs use them only through
 * these inlines, and they change with the soname.
 */
/* What a slot holds: a filament of each kind, or a pruned typed fork's
 * result.  The kind rides in the top byte of the slot's first word, above
 * the function's address (user-space code lies below 2^56 on every 64-bit
 * system that the library builds on), so that a fork stores one word for
 * both and a sync compares one word against the function it names.  An
 * untyped slot's word is its function, unchanged, and every other word
 * has its top bit set (F_NOT_UNTYPED_), so that a join's test is the sign.
 * F_MARK_: the
 * library's, on the slots that an inline pop must leave to it (public
 * ones, the slot below a filament's first child; doc/design.md,
 * "Fork/join"), with the top bit: no inline pop takes a marked word, so
 * that none needs a bound of its own. */
enum { F_KIND_VOID_, F_KIND_LONG_, F_KIND_DOUBLE_, F_KIND_PTR_, F_KIND_DONE_ };
#define F_KIND_BITS_ 7UL
#define F_MARK_ 0x40UL
#define F_NOT_UNTYPED_ 0x80UL
#define F_KIND_SHIFT_ 56
#define F_FN_MASK_ ((1UL << F_KIND_SHIFT_) - 1)

/* A word of the kind for fn: a constant where the compiler sees fn, which
 * it makes once per function and keeps in a register for the fork's store
 * and the sync's compare.  An empty asm that forced it into a register
 * (until December 2026) made gcc 12 keep two copies, and spill the frame
 * around the child's call: 2-3 more instructions per typed fork + sync
 * (bench/floor: fib 37.96 against 35.86, knapsack 83.50 against 81.51). */
static inline unsigned long f_word_(unsigned long kind, void (*fn)(void))
{
    unsigned long tag = kind != F_KIND_VOID_ ? kind | F_NOT_UNTYPED_ : 0;
    return (unsigned long)fn | tag << F_KIND_SHIFT_;
}

/* j follows the word and arg follows i: where a fork passes j = 0 or
 * arg = NULL, that zero and the word before it are one pair store
 * (f_write_slot_). */
struct f_task_ {
    unsigned long word_;      /* f_word_: fn, and the kind above it */
    long j_;
    long i_;
    void *arg_;
    f_value result_;
    volatile unsigned long done_;   /* written by a thief */
    volatile unsigned long thief_;
    /* Forks made into this slot: the owner's, summed by stats.c; an
     * untyped one counts as it is pushed, a typed one as its slot is
     * popped (by its sync, inline, or by the library), since no typed slot
     * outlives its run.  One count per slot, not per deque, so that an
     * increment does not wait for the previous one's through memory, as
     * one counter's would.  A typed fork counts at its sync, where it
     * costs less: in a recursion that the compiler made a loop, each turn
     * forks into the slot that the last turn's sync popped, and counted in
     * the fork, typed fib took 1.07 and 1.05 times its time now at 1 and 2
     * servers; with no count, 0.91 and 0.93 (doc/design.md, "Fork/join"). */
    unsigned long forks_;
};

/* The owner's cursors are slot pointers, so that a fork or a pop is a
 * pointer step.  Every slot from slot_ to bottom_ is live. */
struct f_deque_ {
    struct f_task_ *bottom_;  /* the next free slot */
    struct f_task_ *limit_;   /* an untyped fork at bottom_ >= limit_ goes through the
                                 library; a thief that wants work sets it to NULL (atomic) */
    struct f_task_ *base_;    /* the running filament's first child */
    struct f_task_ *prune_;   /* past limit_ (unless NULL), an untyped fork at bottom_ >= prune_
                                 is a call */
    struct f_task_ *peak_;    /* a typed fork at bottom_ >= peak_ (the highest bottom so far)
                                 goes through the library; a thief sets it to NULL (atomic) */
    struct f_task_ *slot_;
    unsigned long pruned_;
    struct f_task_ asked_;    /* a typed fork that the inline path leaves to the
                                 library through f_fork_typed_asked_ (x86-64) */
};

/* The calling server's deque, in the thread itself, so that a fast path
 * reaches its fields at a fixed offset from the thread pointer, with no
 * pointer to load first; elsewhere one on which every fast path fails. */
#if defined(__GNUC__)
extern F_API __thread struct f_deque_ f_deque_ __attribute__((tls_model("initial-exec")));
#define F_LIKELY_(x) __builtin_expect(!!(x), 1)
/* A bound that a thief may zero, read once without ordering: as AO_load
 * reads it (volatile), and for ThreadSanitizer, which must see an atomic
 * load, as one. */
#if defined(__SANITIZE_THREAD__)
#define F_LOAD_BOUND_(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#else
#define F_LOAD_BOUND_(p) (*(struct f_task_ *volatile *)(p))
#endif
/* Read memory again after this point: a sync's second compare reads the
 * word again, so that its first compares with the word in memory and
 * needs no register for it. */
#define F_REREAD_() __asm__("" ::: "memory")
/* x is the constant 0 (or NULL) where the fork is compiled. */
#define F_ZERO_(x) (__builtin_constant_p((x) == 0) && (x) == 0)
/* Two neighbouring words of a slot, stored as one (x86-64's 16-byte store,
 * a pair store elsewhere); aligned(8): it assumes no more of the address
 * than a long does. */
typedef long f_pair_ __attribute__((vector_size(2 * sizeof(long)), may_alias, aligned(8)));
static inline void f_store_pair_(void *p, long a, long b)
{
    f_pair_ v = { a, b };
    *(f_pair_ *)p = v;
}
/* Does a fork store x, a zero, with the word before it as one pair
 * (f_write_slot_)?  Not where f_pair_ is one word: the model checker's
 * build makes it a long (tests/model/model.h), and there every fork
 * stores word by word. */
#define F_PAIRS_ZERO_(x) (sizeof(f_pair_) == 2 * sizeof(long) && F_ZERO_(x))
#else
extern F_API _Thread_local struct f_deque_ f_deque_;
#define F_LIKELY_(x) (x)
#define F_LOAD_BOUND_(p) (*(struct f_task_ *volatile *)(p))
#define F_REREAD_() ((void)0)
static inline void f_store_pair_(void *p, long a, long b)
{
    ((long *)p)[0] = a;
    ((long *)p)[1] = b;
}
#define F_PAIRS_ZERO_(x) 0
#endif

/* Is t below the bound at p, read once?  On x86-64 the compare reads it
 * itself (one instruction where a compiler makes a volatile load and a
 * compare two), and the branch follows it in the same asm: a flag output
 * let the compiler put the fork's argument arithmetic in between, and
 * then keep the flag in a register (setb, test: a recursive pi took 115
 * instructions per leaf, 106 with the branch here).  The compilers that
 * have flag outputs have asm goto.  Elsewhere, for ThreadSanitizer, and
 * where F_NO_ASM is defined (./configure --disable-asm, which tests the
 * fallback on x86-64), F_LOAD_BOUND_: one instruction more per fork and
 * per sync's bound (bench/floor, typed fib 36.84 against 35.86 per fork +
 * sync, December 2026), the code that every other machine runs.
 * F_ASM_X86_64_: where this file's x86-64 assembly is used, here and in
 * f_ask_typed_fork_ below (ELF: its call goes through the GOT). */
#if defined(__GNUC__) && defined(__x86_64__) && defined(__ELF__) &&                            \
    defined(__GCC_ASM_FLAG_OUTPUTS__) && !defined(__SANITIZE_THREAD__) && !defined(F_NO_ASM)
#define F_ASM_X86_64_ 1
#endif
#if defined(F_ASM_X86_64_)
static inline int f_below_bound_(const struct f_task_ *t, struct f_task_ *const *p)
{
    __asm__ goto("cmpq %1, %0\n\tjae %l[above]" : : "r"(t), "m"(*p) : "cc" : above);
    return 1;
above:
    return 0;
}
#else
static inline int f_below_bound_(const struct f_task_ *t, struct f_task_ *const *p)
{
    return t < F_LOAD_BOUND_(p);
}
#endif

/* Where a fork at slot t (the bottom) goes: a slot pushed below the limit
 * (F_PUSHED_), a call where the library prunes, with the child's own
 * children beginning at the bottom (F_CALL_: the limit stands and the
 * bottom is at prune_ or past it), or to the library (F_ASK_).  The limit,
 * which a thief may zero at any time (and only the owner's library raises),
 * is read again where the slot did not fit: a zero in between sends the
 * fork to the library, as a zero before would have. */
enum { F_ASK_, F_PUSHED_, F_CALL_ };

/* A fork's slot, and the bottom above it.  Where j or arg is a constant
 * zero (Fibonacci's forks: both; a task of two longs: arg), it is stored
 * with the word before it (the function's, i) as one pair: a register
 * whose upper half the move to it zeroes (movq) and one store, the
 * instructions of the two stores it replaces.  In such a recursion the
 * stores are what a fork waits for (doc/design.md, "Fork/join").  Where
 * both vary, the pair would take more instructions than it saves stores
 * (movq, movq, punpcklqdq), and every word is stored alone. */
static inline void f_write_slot_(struct f_deque_ *d, struct f_task_ *t, unsigned long word,
                                 long i, long j, void *arg)
{
    if (F_PAIRS_ZERO_(j)) {
        f_store_pair_(&t->word_, (long)word, j);
    } else {
        t->word_ = word;
        t->j_ = j;
    }
    if (F_PAIRS_ZERO_(arg)) {
        f_store_pair_(&t->i_, i, (long)arg);
    } else {
        t->i_ = i;
        t->arg_ = arg;
    }
    d->bottom_ = t + 1;
}

static inline int f_push_(struct f_deque_ *d, struct f_task_ *t, unsigned long kind,
                          void (*fn)(void), long i, long j, void *arg)
{
    if (fn == (void (*)(void))0)
        return F_ASK_;
    if (F_LIKELY_(f_below_bound_(t, &d->limit_))) {
        if (kind == F_KIND_VOID_)
            t->forks_++;    /* a typed one counts at its pop */
        f_write_slot_(d, t, f_word_(kind, fn), i, j, arg);
        return F_PUSHED_;
    }
    return F_LOAD_BOUND_(&d->limit_) != (struct f_task_ *)0 && t >= d->prune_ ? F_CALL_ : F_ASK_;
}

/* An untyped fork: push it, or, where the library prunes, call it.  The
 * child's joins stop at its own children (base_); what it leaves unjoined
 * stays on top, for its parent's join. */
static inline int f_fork_inline_(f_func fn, long i, long j, void *arg)
{
    struct f_deque_ *d = &f_deque_;
    int way = f_push_(d, d->bottom_, F_KIND_VOID_, (void (*)(void))fn, i, j, arg);
    if (F_LIKELY_(way == F_PUSHED_))
        return 0;
    if (way == F_CALL_) {
        struct f_task_ *base = d->base_;
        d->pruned_++;
        d->base_ = d->bottom_;
        fn(i, j, arg);
        d->base_ = base;
        return 0;
    }
    return (f_fork)(fn, i, j, arg);
}
#define f_fork(fn, i, j, arg) f_fork_inline_((fn), (i), (j), (arg))

/* Below the pruning slot, or while a thief asks (limit_ 0: the caller's
 * next fork answers it), no fork is pruned; at or past it, the library
 * decides.  Outside a filament the bottom lies below it. */
static inline int f_pruning_inline_(void)
{
    struct f_deque_ *d = &f_deque_;
    if (F_LIKELY_(d->bottom_ < d->prune_) || F_LOAD_BOUND_(&d->limit_) == (struct f_task_ *)0)
        return 0;
    return (f_pruning)();
}
#define f_pruning() f_pruning_inline_()

/* Pop and call the running filament's private untyped children, newest
 * first, each as a filament of its own (its children begin at its slot);
 * the library does the rest (marked slots, a typed child, and a thief's
 * request for work, which zeroes limit_: a filament that forked many
 * children in a loop forks no more, so its join answers, publishing half
 * of them).  An untyped slot's word is its function; any other, or a
 * marked one, is negative.  A child returns with base_ as it found it, its
 * slot, and the last child lies at base: so base_ is base again when the
 * loop ends, and only the library needs it put back. */
static inline int f_join_inline_(void)
{
    struct f_deque_ *d = &f_deque_;
    struct f_task_ *base = d->base_, *t = d->bottom_;
    if (t <= base)
        return 0;
    do {
        unsigned long word = (--t)->word_;
        if (!F_LIKELY_((long)word >= 0))
            break;
        d->bottom_ = t;
        d->base_ = t;
        ((f_func)word)(t->i_, t->j_, t->arg_);
        if ((t = d->bottom_) <= base)
            return 0;
    } while (F_LIKELY_(F_LOAD_BOUND_(&d->limit_) != (struct f_task_ *)0));
    d->base_ = base;
    return (f_join)();
}
#define f_join() f_join_inline_()

/* The library's typed fork and sync, for what the inlines cannot decide;
 * the caller then takes the bottom as its frame.  With fn not NULL the
 * fork cannot fail, and the inlines return 0 where the compiler sees it
 * (f_fork(3)): inside a filament it pushes, or runs the child at once and
 * keeps its value for the sync (pruned, or in a full deque); outside a
 * filament it runs the child at once, as a plain call, and keeps its value
 * for the sync.  With seq (f_fork_long_seq), a pruned fork calls seq. */
F_API int f_fork_typed_(unsigned long kind, void (*fn)(void), long i, long j, void *arg);
F_API int f_fork_typed_seq_(unsigned long kind, void (*fn)(void), void (*seq)(void), long i,
                            long j, void *arg);
F_API f_value f_sync_typed_(unsigned long kind);

/*
 * A typed fork that its inline path leaves to the library (a new peak, a
 * thief's request, a frame that is not the bottom): f_fork_typed_.  On
 * x86-64 it is entered without the clobbers of a call: the fork's words go
 * into the deque's asked_ slot and f_fork_typed_asked_ saves every general
 * register that the calling convention lets a callee clobber, so that the
 * compiler may keep the caller's arguments and values in those registers
 * across the fork.  With a plain call here, gcc 12 kept Lace's knapsack's
 * four arguments in callee-saved registers, pushed and popped six per call
 * and spilled its frame around the child's call (bench/floor, gcc 12.2:
 * knapsack-task 72.38 instructions per call, 63.38 with this; pi 83.45,
 * 66.47; typed fork + sync 15.87 over a call, 13.97; doc/design.md,
 * "Fork/join").  The call skips the red zone, which the caller may use,
 * and goes through the GOT, not a PLT entry, whose lazy binding would
 * clobber r11; f_fork_typed_asked_'s unwind information puts the caller's
 * stack pointer back above the red zone and says where the registers
 * are, so that a debugger's backtrace from within the library is whole,
 * with the caller's values.  The vector and x87 registers are clobbered
 * (the C library's string functions use them, with AVX-512's mask
 * registers).
 */
#if defined(F_ASM_X86_64_)
#if defined(__AVX512F__)
#define F_AVX512_CLOBBERS_                                                                     \
    , "xmm16", "xmm17", "xmm18", "xmm19", "xmm20", "xmm21", "xmm22", "xmm23", "xmm24", "xmm25", \
        "xmm26", "xmm27", "xmm28", "xmm29", "xmm30", "xmm31", "k0", "k1", "k2", "k3", "k4",     \
        "k5", "k6", "k7"
#else
#define F_AVX512_CLOBBERS_
#endif
F_API void f_fork_typed_asked_(void);
static inline void f_ask_typed_fork_(struct f_deque_ *d, unsigned long kind, void (*fn)(void),
                                     unsigned long word, long i, long j, void *arg)
{
    (void)kind;
    (void)fn;
    d->asked_.word_ = word;
    d->asked_.i_ = i;
    d->asked_.j_ = j;
    d->asked_.arg_ = arg;
    __asm__ volatile("lea -128(%%rsp), %%rsp\n\t"
                     "call *f_fork_typed_asked_@GOTPCREL(%%rip)\n\t"
                     "lea 128(%%rsp), %%rsp"
                     :
                     :
                     : "memory", "cc", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6",
                       "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14",
                       "xmm15", "st", "st(1)", "st(2)", "st(3)", "st(4)", "st(5)", "st(6)",
                       "st(7)" F_AVX512_CLOBBERS_);
}
#else
static inline void f_ask_typed_fork_(struct f_deque_ *d, unsigned long kind, void (*fn)(void),
                                     unsigned long word, long i, long j, void *arg)
{
    (void)d;
    (void)word;
    f_fork_typed_(kind, fn, i, j, arg);
}
#endif

/* Typed forks: push at the frame, if it is the bottom and below peak_, the
 * highest bottom so far (a new peak goes to the library), which a thief
 * that asks for work zeroes, and take the slot above as the frame (the
 * library's path takes the bottom, where the frame was not the bottom:
 * untyped children left above it, or a join since).  The frame is the
 * slot's address, so that the fork does not wait for the previous fork's
 * or sync's store of the bottom, as Lace's spawn writes at the head it
 * passes.  No pruning threshold stops them: a pushed child that its sync
 * calls costs no more than the call a pruned fork would make, and leaves
 * that call in tail position (f_fork(3)); the library prunes them only in
 * a full deque.  A typed fork with a sequential version (f_fork_long_seq)
 * is bounded by limit_ instead, as an untyped fork is, so that the library
 * prunes it to a call of seq, whose subtree then runs without forks.  A
 * sync pops the slot under the frame, if the frame is the
 * bottom; the library marks the slot below the calling filament's first
 * child wherever it hands out a frame there (doc/design.md, "Fork/join"),
 * so no sync pops a slot of another's without a bound to compare with.  A
 * slot whose word is the named function of this kind (only a typed fork
 * of it writes one; a marked one differs) is counted (struct f_task_)
 * and called directly, as a plain
 * call with nothing after it (the caller's base_; its leftovers for the
 * caller's next sync or join), so that the compiler can make the
 * recursion a loop.  Every fork stores j and arg, so that this is one
 * compare whatever the fork passed: a flag for forks without them saved
 * their two stores but cost the syncs of the forks with them a second
 * compare (doc/design.md, "Fork/join").  A pruned child's kept result
 * (F_KIND_DONE_) is returned; the rest goes to the library.
 *
 * The frame goes in and comes back by value (f_fork_long_at_ and its
 * kin), and only the small functions that the macros call take its
 * address, inlined before the compiler's first passes (F_EARLY_): so the
 * typed function's frame is a register from the start, as Lace's head is,
 * and the compiler may split the function's leaf test off into its
 * callers, as it does Lace's tasks.  They make the word too, so that the
 * forks and syncs of one function share one (f_word_): made in the
 * functions inlined later, each made its own, which took a register each
 * or was made again at each use.  A fork returns 0 after the library's
 * path as after its own, so that a program that checks the result (and
 * calls the child itself where it failed) compiles to the code of one that
 * does not: only a NULL frame pointer or function fails (F_EINVAL), which
 * the compiler sees at the call. */
#if defined(__GNUC__)
#define F_EARLY_ __attribute__((always_inline))
#else
#define F_EARLY_
#endif
#define F_TYPED_FORK_(T, name, KIND, member)                                                   \
    struct f_synced_##name##_ {                                                                \
        T value_;                                                                              \
        struct f_task_ *frame_;                                                                \
    };                                                                                         \
    static inline struct f_task_ *f_fork_##name##_at_(struct f_task_ *t, unsigned long word,   \
                                                      f_##name##_func fn, long i, long j,      \
                                                      void *arg)                               \
    {                                                                                          \
        struct f_deque_ *d = &f_deque_;                                                        \
        if (F_LIKELY_(t == d->bottom_ && f_below_bound_(t, &d->peak_))) {                      \
            f_write_slot_(d, t, word, i, j, arg);                                                \
            return t + 1;                                                                      \
        }                                                                                      \
        f_ask_typed_fork_(d, KIND, (void (*)(void))fn, word, i, j, arg);                        \
        return d->bottom_;                                                                     \
    }                                                                                          \
    static inline struct f_synced_##name##_ f_sync_##name##_at_(struct f_task_ *t,             \
                                                                unsigned long word,            \
                                                                f_##name##_func fn)            \
    {                                                                                          \
        struct f_deque_ *d = &f_deque_;                                                        \
        struct f_synced_##name##_ r;                                                           \
        if (F_LIKELY_(t == d->bottom_)) {                                                      \
            if (F_LIKELY_((--t)->word_ == word)) {                                             \
                d->bottom_ = t;                                                                \
                t->forks_++;                                                                   \
                r.frame_ = t;                                                                  \
                r.value_ = fn(t, t->i_, t->j_, t->arg_);                                       \
                return r;                                                                      \
            }                                                                                  \
            F_REREAD_();                                                                       \
            if (t->word_ == f_word_(F_KIND_DONE_, (void (*)(void))0)) {                        \
                d->bottom_ = t;                                                                \
                r.frame_ = t;                                                                  \
                r.value_ = t->result_.member;                                                  \
                return r;                                                                      \
            }                                                                                  \
        }                                                                                      \
        r.value_ = f_sync_typed_(KIND).member;                                                 \
        r.frame_ = d->bottom_;                                                                 \
        return r;                                                                              \
    }                                                                                          \
    /* A NULL frame pointer or function: refused (F_EINVAL). */                                \
    static inline F_EARLY_ int f_fork_##name##_inline_(f_frame *fr, f_##name##_func fn,        \
                                                       long i, long j, void *arg)              \
    {                                                                                          \
        if (fr == (f_frame *)0 || fn == (f_##name##_func)0)                                    \
            return f_fork_typed_(KIND, (void (*)(void))0, i, j, arg);                          \
        *fr = f_fork_##name##_at_(*fr, f_word_(KIND, (void (*)(void))fn), fn, i, j, arg);      \
        return 0;                                                                              \
    }                                                                                          \
    static inline F_EARLY_ int f_fork_##name##_seq_inline_(f_frame *fr, f_##name##_func fn,    \
                                                           f_##name##_func seq, long i,        \
                                                           long j, void *arg)                  \
    {                                                                                          \
        struct f_deque_ *d = &f_deque_;                                                        \
        struct f_task_ *t;                                                                     \
        if (fr == (f_frame *)0 || fn == (f_##name##_func)0 || seq == (f_##name##_func)0)       \
            return f_fork_typed_(KIND, (void (*)(void))0, i, j, arg);                          \
        t = *fr;                                                                               \
        if (F_LIKELY_(t == d->bottom_ && f_below_bound_(t, &d->limit_))) {                     \
            f_write_slot_(d, t, f_word_(KIND, (void (*)(void))fn), i, j, arg);                 \
            *fr = t + 1;                                                                       \
            return 0;                                                                          \
        }                                                                                      \
        f_fork_typed_seq_(KIND, (void (*)(void))fn, (void (*)(void))seq, i, j, arg);           \
        *fr = d->bottom_;                                                                      \
        return 0;                                                                              \
    }                                                                                          \
    /* No frame pointer: as its fork, nothing to sync. */                                      \
    static inline F_EARLY_ T f_sync_##name##_inline_(f_frame *fr, f_##name##_func fn)          \
    {                                                                                          \
        struct f_synced_##name##_ r;                                                           \
        if (fr == (f_frame *)0)                                                                \
            return (T)0;                                                                       \
        r = f_sync_##name##_at_(*fr, f_word_(KIND, (void (*)(void))fn), fn);                   \
        *fr = r.frame_;                                                                        \
        return r.value_;                                                                       \
    }
F_TYPED_FORK_(long, long, F_KIND_LONG_, l)
F_TYPED_FORK_(double, double, F_KIND_DOUBLE_, d)
F_TYPED_FORK_(void *, ptr, F_KIND_PTR_, p)
#undef F_TYPED_FORK_
#define f_fork_long(fr, fn, i, j, arg) f_fork_long_inline_((fr), (fn), (i), (j), (arg))
#define f_fork_long_seq(fr, fn, seq, i, j, arg)                                                \
    f_fork_long_seq_inline_((fr), (fn), (seq), (i), (j), (arg))
#define f_fork_double_seq(fr, fn, seq, i, j, arg)                                              \
    f_fork_double_seq_inline_((fr), (fn), (seq), (i), (j), (arg))
#define f_fork_ptr_seq(fr, fn, seq, i, j, arg)                                                 \
    f_fork_ptr_seq_inline_((fr), (fn), (seq), (i), (j), (arg))
#define f_sync_long(fr, fn) f_sync_long_inline_((fr), (fn))
#define f_fork_double(fr, fn, i, j, arg) f_fork_double_inline_((fr), (fn), (i), (j), (arg))
#define f_sync_double(fr, fn) f_sync_double_inline_((fr), (fn))
#define f_fork_ptr(fr, fn, i, j, arg) f_fork_ptr_inline_((fr), (fn), (i), (j), (arg))
#define f_sync_ptr(fr, fn) f_sync_ptr_inline_((fr), (fn))

/* ------------------------------------------------- arguments: firstprivate */

/*
 * F_TASK_n (<filaments.h>): a task's arguments are a structure, copied at
 * the fork into the three words that every slot carries, i, j and arg,
 * where it fits, so that a fork with typed arguments stores what a fork
 * with (i, j, arg) stores and needs no storage that must live until the
 * join: the child copies them out of its slot, wherever it runs (as Lace
 * keeps a task's arguments in its deque slot).  A larger structure goes
 * into a block from malloc, as f_vfork's and an OpenMP runtime's
 * firstprivate copies do, which the child frees once it has copied it: a
 * stolen child may run after its parent's frame has moved on, so no block
 * there could serve.  malloc, not f_malloc: a block needs no cache line of
 * its own, and malloc's per-thread cache serves a block freed by a thief
 * without a lock, where f_malloc's aligned allocation took 3-4 times as
 * long per fork (a loop of 1000 forks with four longs, 1 server).  Which
 * of the two is decided by sizeof, where the task is compiled.  A root
 * forked and never run (f_finalize before f_parallel) leaves its block
 * behind.
 */
/* A task's words (F_TASK_n) in the slot's order (struct f_task_: j, i,
 * arg), so that the structure's bytes are the slot's bytes from j on,
 * where a typed task's child reads them (F_TASK_SLOT_ below). */
struct f_words_ {
    long j_;
    long i_;
    void *arg_;
};

/* The words as integers while a fork fills them, one bit pattern each. */
typedef unsigned long f_bits_[3];

/* The n bytes at p as an integer, where n is the size of one: 1 or 0. */
static inline int f_args_bits_(unsigned long *bits, const void *p, size_t n)
{
    unsigned char c;
    unsigned short s;
    unsigned int i;
    if (n == sizeof c) {
        memcpy(&c, p, n);
        *bits = c;
    } else if (n == sizeof s) {
        memcpy(&s, p, n);
        *bits = s;
    } else if (n == sizeof i) {
        memcpy(&i, p, n);
        *bits = i;
    } else if (n == sizeof *bits) {
        memcpy(bits, p, n);
    } else {
        return 0;
    }
    return 1;
}

/* The member of n bytes at byte off of the structure of size bytes at a,
 * into the words u (zeroed), where the structure fits in them: where the
 * member is an integer's size within one word, as its bits shifted to its
 * place in that word, so that the compiler keeps the words in registers.
 * A copy of the whole structure into the words (until December 2026) kept
 * them on the stack, whence the fork loaded them in wider loads than the
 * stores that had just put them there, which waited for those stores to
 * reach the cache (a failed store-to-load forward on x86-64): Lace's
 * knapsack, ported as an F_TASK_4 (three ints in two words), took 3.0
 * times Lace's time for 1.3 times its instructions, and its pi (two
 * longs, loaded as one 16-byte vector) 1.26 times.  A member of any other
 * size or place is copied: correct, and slower. */
static inline void f_args_put_(f_bits_ u, const void *a, size_t size, size_t off, size_t n)
{
    const unsigned char *p = (const unsigned char *)a + off;
    const unsigned long one = 1;
    unsigned char little;
    size_t at = off % sizeof u[0];
    unsigned long bits;
    if (size > sizeof(f_bits_))
        return;
    if (at + n > sizeof u[0] || !f_args_bits_(&bits, p, n)) {
        memcpy((unsigned char *)u + off, p, n);
        return;
    }
    /* The byte order, which the compiler folds: the member's first byte
     * is the word's least significant on a little-endian machine, its
     * most significant on a big-endian one (s390x). */
    memcpy(&little, &one, 1);
    u[off / sizeof u[0]] |= bits << (little ? at : sizeof u[0] - at - n) * CHAR_BIT;
}

/* The structure of n bytes at args into *w, from the words u where it
 * fits (f_args_put_ filled them), else into a block: F_OK, or F_ENOMEM. */
static inline int f_args_pack_(struct f_words_ *w, const f_bits_ u, const void *args, size_t n)
{
    if (n <= sizeof(f_bits_)) {
        w->j_ = (long)u[0];
        w->i_ = (long)u[1];
        w->arg_ = (void *)u[2];
        return 0;
    }
    w->j_ = 0;
    w->i_ = 0;
    if ((w->arg_ = malloc(n)) == (void *)0)
        return F_ENOMEM;
    memcpy(w->arg_, args, n);
    return 0;
}

/* The child's side: the n bytes back, and the block freed.  An untyped
 * task has its words alone. */
static inline void f_args_unpack_(void *args, size_t n, long i, long j, void *arg)
{
    if (n <= sizeof(struct f_words_)) {
        struct f_words_ w = { j, i, arg };
        memcpy(args, &w, n);
    } else {
        memcpy(args, arg, n);
        free(arg);
    }
}

/* A fork's result rc; a fork that failed frees the block it made. */
static inline int f_args_forked_(int rc, const struct f_words_ *w, size_t n)
{
    if (rc < 0 && n > sizeof *w)
        free(w->arg_);
    return rc;
}

#define F_UNWRAP_(...) __VA_ARGS__
#if defined(__GNUC__)
#define F_UNUSED_ __attribute__((unused))
#else
#define F_UNUSED_
#endif
/* F_FORK_SEQ's check that seq takes name's arguments, so that it reads
 * them as name's fork packed them: a negative array size where not. */
#define F_SAME_ARGS_(name, seq)                                                                \
    (void)sizeof(char[_Generic((seq##_sig_)0, name##_sig_: 1, default: -1)]),

/* F_TASK_n's four lists, made from its n pairs (T1, a1) .. (Tn, an) by one
 * map, F_EACHn_(M, SEP, pairs): M(T1, a1) SEP() ... SEP() M(Tn, an). */
#define F_EACH1_(M, S, T, a) M(T, a)
#define F_EACH2_(M, S, T, a, ...) M(T, a) S() F_EACH1_(M, S, __VA_ARGS__)
#define F_EACH3_(M, S, T, a, ...) M(T, a) S() F_EACH2_(M, S, __VA_ARGS__)
#define F_EACH4_(M, S, T, a, ...) M(T, a) S() F_EACH3_(M, S, __VA_ARGS__)
#define F_EACH5_(M, S, T, a, ...) M(T, a) S() F_EACH4_(M, S, __VA_ARGS__)
#define F_EACH6_(M, S, T, a, ...) M(T, a) S() F_EACH5_(M, S, __VA_ARGS__)
#define F_EACH7_(M, S, T, a, ...) M(T, a) S() F_EACH6_(M, S, __VA_ARGS__)
#define F_EACH8_(M, S, T, a, ...) M(T, a) S() F_EACH7_(M, S, __VA_ARGS__)
#define F_EACH9_(M, S, T, a, ...) M(T, a) S() F_EACH8_(M, S, __VA_ARGS__)
#define F_EACH10_(M, S, T, a, ...) M(T, a) S() F_EACH9_(M, S, __VA_ARGS__)
#define F_COMMA_() ,
#define F_NO_SEP_()
#define F_PARAM_(T, a) T a
#define F_MEMBER_(T, a) T a;
#define F_UNPACKED_(T, a) f_a_.a
#define F_ARG_(T, a) a
#define F_PUT_(T, a) f_args_put_(f_u_, &f_a_, sizeof f_a_, offsetof(f_args_t_, a), sizeof f_a_.a);
/* The task of n arguments: its parameters, its structure's members, the
 * members as the body's arguments, the arguments as the fork's, and the
 * members put into the slot's words. */
#define F_TASK_N_(n, ret, name, ...)                                                               \
    F_TASK_##ret##_(name, (F_EACH##n##_(F_PARAM_, F_COMMA_, __VA_ARGS__)),                         \
                    F_EACH##n##_(F_MEMBER_, F_NO_SEP_, __VA_ARGS__),                               \
                    (F_EACH##n##_(F_UNPACKED_, F_COMMA_, __VA_ARGS__)),                            \
                    (F_EACH##n##_(F_ARG_, F_COMMA_, __VA_ARGS__)),                                 \
                    F_EACH##n##_(F_PUT_, F_NO_SEP_, __VA_ARGS__))

/* What every task has: its arguments' structure and their types. */
#define F_TASK_ARGS_(name, params, members)                                                        \
    struct F_MAY_ALIAS_ name##_args_ {                                                             \
        members                                                                                    \
    };                                                                                             \
    typedef void(*name##_sig_) params;

/* The first steps of a fork or a run: the arguments packed into f_w_, or
 * the error returned; f_rc_ holds F_OK for the call to replace. */
#define F_PACK_(name, args, puts)                                                                  \
    typedef struct name##_args_ f_args_t_;                                                         \
    f_args_t_ f_a_ = { F_UNWRAP_ args };                                                           \
    f_bits_ f_u_ = { 0, 0, 0 };                                                                    \
    struct f_words_ f_w_;                                                                          \
    int f_rc_;                                                                                     \
    puts f_rc_ = f_args_pack_(&f_w_, f_u_, &f_a_, sizeof f_a_);                                    \
    if (f_rc_ < 0)                                                                                 \
        return f_rc_;

/* ret void: name, an f_func that unpacks and calls the body; name##_fork_,
 * which packs and forks it (with seq, f_fork_seq).  Each task keeps its
 * body's address (name##_keep_, a pointer the program never reads): gcc
 * splits a function's early returns off into its callers (partial
 * inlining, the .part functions) only where it has more than one caller or
 * its address is taken, and a body has one caller, its wrapper (its own
 * F_CALLs do not count).  Lace's knapsack as an F_TASK_4, whose base cases
 * return early, took 1046 million instructions at 1 server without the
 * split and 854 million with it (callgrind, gcc 12, December 2026). */
#define F_TASK_void_(name, params, members, unpacked, args, puts)                                  \
    F_TASK_ARGS_(name, params, members)                                                            \
    static void name##_body_ params;                                                               \
    static void (*const volatile name##_keep_) params F_UNUSED_ = name##_body_;                    \
    static void name(long f_i_, long f_j_, void *f_arg_)                                           \
    {                                                                                              \
        struct name##_args_ f_a_;                                                                  \
        f_args_unpack_(&f_a_, sizeof f_a_, f_i_, f_j_, f_arg_);                                    \
        name##_body_ unpacked;                                                                     \
    }                                                                                              \
    static inline F_EARLY_ F_UNUSED_ int name##_fork_(f_func f_seq_, F_UNWRAP_ params)             \
    {                                                                                              \
        F_PACK_(name, args, puts)                                                                  \
        f_rc_ = f_seq_ != (f_func)0 ? f_fork_seq(name, f_seq_, f_w_.i_, f_w_.j_, f_w_.arg_)        \
                                    : f_fork(name, f_w_.i_, f_w_.j_, f_w_.arg_);                   \
        return f_args_forked_(f_rc_, &f_w_, sizeof f_a_);                                          \
    }                                                                                              \
    static void name##_body_ params

/*
 * A typed task whose structure fits in the slot's words, with no more
 * than a word's alignment, is loaded by its child from its frame, member
 * by member (name##_get_, through a type that may alias the slot's
 * words), where every caller of a typed function leaves its words: its
 * sync, which calls it with its own slot as the frame, and the library
 * (fi_call).  Its fork stores the words, as every fork does.  So the
 * child's loads lie within the fork's stores, which forwards them, and
 * the child does not unpack a word of two ints from the sync's word
 * arguments (mov, sar): knapsack as an F_TASK_4 (bench/floor's
 * knapsack-task) 63.38 instructions per call that way, 59.17 this way
 * (gcc 12.2, December 2026).  Stored as the structure too, member by
 * member as Lace stores its tasks, it took 56.07 instructions, but a
 * store more per fork, and a fork waits on its stores: Lace's knapsack
 * ported took 1.10 times Lace's time that way, 1.00 this way (11 rounds
 * in turn, Intel Xeon).  Other tasks read their words from the
 * arguments, whose bytes are the same (struct f_words_).
 */
#if defined(__GNUC__)
#define F_MAY_ALIAS_ __attribute__((may_alias))
#define F_TASK_SLOT_(name)                                                                         \
    static inline void name##_get_(struct name##_args_ *f_a_, const struct f_task_ *f_t_)          \
    {                                                                                              \
        *f_a_ = *(const struct name##_args_ *)((const char *)f_t_ + offsetof(struct f_task_, j_)); \
    }
#else
#define F_MAY_ALIAS_
#define F_TASK_SLOT_(name)                                                                         \
    static inline void name##_get_(struct name##_args_ *f_a_, const struct f_task_ *f_t_)          \
    {                                                                                              \
        memcpy(f_a_, (const char *)f_t_ + offsetof(struct f_task_, j_), sizeof *f_a_);             \
    }
#endif
#define F_TASK_IN_SLOT_(name)                                                                      \
    (sizeof(struct name##_args_) <= sizeof(struct f_words_) &&                                     \
     _Alignof(struct name##_args_) <= _Alignof(long))

/* Typed: name, a typed function of the kind; its fork, which takes the
 * frame (with seq, f_fork_long_seq and its kin); and its run as a root
 * (f_run_long and its kin). */
#define F_TASK_TYPED_(T, kind, name, params, members, unpacked, args, puts)                        \
    F_TASK_ARGS_(name, params, members)                                                            \
    F_TASK_SLOT_(name)                                                                             \
    static T name##_body_(f_frame fr F_UNUSED_, F_UNWRAP_ params);                                 \
    static T (*const volatile name##_keep_)(f_frame, F_UNWRAP_ params) F_UNUSED_ = name##_body_;   \
    static T name(f_frame f_fr_, long f_i_, long f_j_, void *f_arg_)                               \
    {                                                                                              \
        struct name##_args_ f_a_;                                                                  \
        if (F_TASK_IN_SLOT_(name))                                                                 \
            name##_get_(&f_a_, f_fr_);                                                             \
        else                                                                                       \
            f_args_unpack_(&f_a_, sizeof f_a_, f_i_, f_j_, f_arg_);                                \
        return name##_body_(f_fr_, F_UNWRAP_ unpacked);                                            \
    }                                                                                              \
    static inline F_EARLY_ F_UNUSED_ int name##_fork_(f_frame *f_fr_, f_##kind##_func f_seq_,      \
                                                      F_UNWRAP_ params)                            \
    {                                                                                              \
        F_PACK_(name, args, puts)                                                                  \
        f_rc_ = f_seq_ != (f_##kind##_func)0                                                       \
                    ? f_fork_##kind##_seq(f_fr_, name, f_seq_, f_w_.i_, f_w_.j_, f_w_.arg_)        \
                    : f_fork_##kind(f_fr_, name, f_w_.i_, f_w_.j_, f_w_.arg_);                     \
        return f_args_forked_(f_rc_, &f_w_, sizeof f_a_);                                          \
    }                                                                                              \
    static inline F_UNUSED_ int name##_run_(T *f_result_, F_UNWRAP_ params)                        \
    {                                                                                              \
        F_PACK_(name, args, puts)                                                                  \
        f_rc_ = f_run_##kind(name, f_w_.i_, f_w_.j_, f_w_.arg_, f_result_);                        \
        return f_args_forked_(f_rc_, &f_w_, sizeof f_a_);                                          \
    }                                                                                              \
    static T name##_body_(f_frame fr F_UNUSED_, F_UNWRAP_ params)
#define F_TASK_long_(...) F_TASK_TYPED_(long, long, __VA_ARGS__)
#define F_TASK_double_(...) F_TASK_TYPED_(double, double, __VA_ARGS__)
#define F_TASK_ptr_(...) F_TASK_TYPED_(void *, ptr, __VA_ARGS__)

/* ------------------------------------------------------------ reductions */

/*
 * Opaque to programs (f_reduction in <filaments.h>): one padded slot per
 * server, combined by f_reduction_value().  The layout exists only for the
 * inline f_reduce() fast path.
 */
struct f_reduction {
    enum f_op op_;
    int nslots_;
    double *slots_;  /* one per server, a cache line apart */
};

/* Bytes from a reduction's first slot to the calling server's: its index
 * times the cache line; 0 outside the servers (private). */
#if defined(__GNUC__)
extern F_API __thread size_t f_self_slot_ __attribute__((tls_model("initial-exec")));
#else
extern F_API _Thread_local size_t f_self_slot_;
#endif

/* The calling server's slot, which every fast path below folds into, and
 * which a filament may fold into itself (f_reduction_local): taken first,
 * it is loaded ahead of the filament's own stores. */
static inline double *f_reduction_local_inline_(f_reduction *r)
{
    return (double *)((char *)r->slots_ + f_self_slot_);
}
#define f_reduction_local(r) f_reduction_local_inline_((r))

/* Fast path: no call, no lock; the server's own slot.  (f_reduce)(r, v) is the function. */
static inline void f_reduce_inline_(f_reduction *r, double v)
{
    double *slot = f_reduction_local(r);
    switch (r->op_) {
    case F_SUM: *slot += v; break;
    case F_MIN: if (v < *slot) *slot = v; break;
    case F_MAX: if (v > *slot) *slot = v; break;
    }
}
#define f_reduce(r, v) f_reduce_inline_((r), (v))

/*
 * The same for a reduction whose operation the caller knows: no dispatch on
 * the operation, so a loop over points (a range version) keeps only the
 * compare or the add.  Use each only on a reduction made with its op.
 */
static inline void f_reduce_sum(f_reduction *r, double v) { *f_reduction_local(r) += v; }
static inline void f_reduce_min(f_reduction *r, double v)
{
    double *slot = f_reduction_local(r);
    if (v < *slot)
        *slot = v;
}
static inline void f_reduce_max(f_reduction *r, double v)
{
    double *slot = f_reduction_local(r);
    if (v > *slot)
        *slot = v;
}

/* ------------------------------------------ libraries built on Filaments */

/* Not for programs: the poll of a library built on Filaments
 * (libfilaments-mpi), in a slot of its own, polled beside the program's;
 * f_finalize removes it and calls end(arg).  F_ESTATE as f_set_poll. */
F_API int f_set_library_poll_(f_poll_func poll, void (*end)(void *arg), void *arg);

#endif /* FILAMENTS_INLINE_PRIVATE_H */
