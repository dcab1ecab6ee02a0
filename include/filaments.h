/*
 * filaments.h - the public interface of libfilaments.
 *
 * Fine-grain parallelism on shared-memory machines after Engler, Andrews and
 * Lowenthal, "Filaments: Efficient Support for Fine-Grain Parallelism",
 * TR 93-13a (1994): stateless run-to-completion, iterative (barrier) and
 * fork/join filaments, run by one server thread per core.
 *
 * Every public name starts with f_ or F_.  Names that end in an underscore
 * belong to the inline fast paths below: they are not part of the interface
 * and may change with the library's soname.  See filaments(7) and the man
 * page of each call.
 */
#ifndef FILAMENTS_H
#define FILAMENTS_H

#include <limits.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define F_API __attribute__((visibility("default")))
#else
#define F_API
#endif

/* ---------------------------------------------------------------- errors */

/* One list makes both the codes and f_strerror(); numbers are never reused. */
#define F_ERRORS(X)                                                            \
    X(F_EINVAL, -1, "invalid argument")                                        \
    X(F_ENOMEM, -2, "out of memory")                                           \
    X(F_ESTATE, -3, "call not allowed at this point")

#define F_ERROR_ENUM_(name, value, text) name = value,
enum { F_ERRORS(F_ERROR_ENUM_) };
#undef F_ERROR_ENUM_

/* Success.  <unistd.h> defines F_OK as 0 for access(2): the same value. */
#ifndef F_OK
#define F_OK 0
#endif

F_API const char *f_strerror(int code);

/* A value of one of the argument and result types: long, double, pointer. */
typedef union f_value {
    long l;
    double d;
    void *p;
} f_value;

/* ------------------------------------------------------------ life cycle */

F_API int f_initialize(int nservers);
F_API int f_parallel(void);
F_API void f_finalize(void);
F_API int f_num_servers(void);
F_API int f_my_server(void);

/* --------------------------------------------- run-to-completion [§2.1] */

/* A filament: a code pointer and its arguments; no stack, no state. */
typedef void (*f_func)(long i, long j, void *arg);

/* As a server argument: let the library place the filament and balance. */
#define F_ANY (-1)

F_API int f_rtc_thread(int server, f_func fn, long i, long j, void *arg);

/*
 * The creation fast path, inline (as putc is): from the main thread between
 * runs, or from a server's creator for its own server (f_create_per_server
 * below), a filament for a named server is four stores into that server's
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

enum { F_NOTDONE = 0, F_DONE = 1 };
typedef int (*f_seq_func)(void *arg);

F_API int f_new_barrier(f_seq_func seq, void *arg);
F_API int f_iterative_thread(int server, f_func fn, long i, long j, void *arg);

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

/*
 * A row in one call: the filaments fn(i, j, arg) for j_begin <= j < j_end,
 * as f_iterative_thread would create them one by one in increasing j (one
 * run, on `server`, or placed as its first point would be for F_ANY), or
 * none if one cannot be created.  From where f_iterative_thread may be
 * called.  An empty row (j_end == j_begin) creates nothing; j_end < j_begin
 * is F_EINVAL.  See f_iterative_row(3).
 */
F_API int f_iterative_row(int server, f_func fn, long i, long j_begin, long j_end, void *arg);

/*
 * Range versions.  A run of filaments created one after the other with the
 * same fn, i and arg and consecutive j (the points of one grid row) is stored
 * once.  If the program names a range version of fn, each run is executed
 * by one call range(i, j_begin, j_end, arg), which the compiler can optimize
 * as the loop of a coarse-grain program; otherwise fn is called per point.
 */
typedef void (*f_range_func)(long i, long j_begin, long j_end, void *arg);

F_API int f_set_range_version(f_func point, f_range_func range);

/*
 * F_RANGE_VERSION(point) defines `static void point_range(long, long, long,
 * void *)` from a (preferably static inline) point function, e.g.
 *     static inline void relax(long i, long j, void *g) { ... }
 *     F_RANGE_VERSION(relax)
 *     ... f_set_range_version(relax, relax_range);
 */
#define F_RANGE_VERSION(point)                                                 \
    static void point##_range(long f_i_, long f_jb_, long f_je_, void *f_a_)   \
    {                                                                          \
        for (long f_j_ = f_jb_; f_j_ < f_je_; ++f_j_)                          \
            point(f_i_, f_j_, f_a_);                                           \
    }

/* ------------------------------------------------ creation by the servers */

/*
 * The paper's programs create every filament from the main thread, then
 * call f_parallel; with a million filaments that is a serial start while
 * every server waits.  f_create_per_server(create, arg), from the main
 * thread between runs, wakes the servers and has each call
 * create(server, nservers, arg) on its own thread, all at once, and
 * returns when all have returned: the filaments they created are consumed
 * by the next f_parallel, as any others, and each server's queue memory is
 * first touched by that server.  Inside create, a server creates for itself:
 * f_rtc_thread and f_rtc_vthread for `server` (the inline path: 18
 * instructions to the main thread's 12, the same time where memory
 * dominates) or F_ANY (its own F_ANY queue, balanced during the run); f_iterative_thread, f_iterative_row and f_iterative_vthread for
 * `server` or F_ANY (placed on `server`) in the current phase, the last f_new_barrier's.
 * Creating for another server returns F_ESTATE, as do f_new_barrier, forks
 * and joins.  create returns 0 or a negative code; if it returns one, or
 * any creation call in any server's create failed, f_create_per_server
 * returns that code (the lowest server's first) and nothing created by any
 * server in the call remains.  F_ESTATE: not from the main thread between
 * runs; F_EINVAL: create is NULL.  See f_create_per_server(3).
 */
typedef int (*f_create_func)(int server, int nservers, void *arg);

F_API int f_create_per_server(f_create_func create, void *arg);

/*
 * Events from outside the library, such as MPI requests (libfilaments-mpi):
 * during a run, a server that has run its own work calls poll(arg), which
 * may create RTC filaments for the events that have come, and returns how
 * many are still awaited; while that is not 0, the server polls again
 * instead of ending the episode.  Main thread, between runs; until
 * f_finalize.  See f_set_poll(3).
 */
typedef int (*f_poll_func)(void *arg);

F_API int f_set_poll(f_poll_func poll, void *arg);

/* Not for programs: the poll of a library built on Filaments
 * (libfilaments-mpi), in a slot of its own, polled beside the program's;
 * f_finalize removes it and calls end(arg).  F_ESTATE as f_set_poll. */
F_API int f_set_library_poll_(f_poll_func poll, void (*end)(void *arg), void *arg);

/* ------------------------------------------------- fork/join [§2.3, §4.5] */

F_API int f_fork(f_func fn, long i, long j, void *arg);
F_API int f_join(void);

#define F_PRUNE_AUTO (-1L)
F_API void f_set_prune(long threshold);
F_API long f_get_prune(void);

/*
 * Pruning with a sequential version [paper §4.5]: `seq` is the copy of `fn`
 * in which forks are plain calls.  When the library prunes this fork, it
 * calls seq(i, j, arg), so the whole pruned subtree runs without the
 * library; otherwise it forks fn as f_fork does.
 */
F_API int f_fork_seq(f_func fn, f_func seq, long i, long j, void *arg);

/*
 * Value-returning forks, for the finest grain: the child's result comes
 * back from the matching sync, as from a call.  Syncs match forks in
 * reverse order (the most recent fork first) and name the function that
 * their fork named, as Wool's and Lace's SYNC do.  A typed function takes
 * its frame, its place in the server's deque, first, and passes it on to
 * the typed functions it calls; a fork moves the frame past its child, the
 * sync back:
 *     static long fib(f_frame fr, long n, long unused, void *arg)
 *     {
 *         if (n < 2)
 *             return n;
 *         if (f_fork_long(&fr, fib, n - 1, 0, NULL) < 0)   (forked nothing)
 *             return fib(fr, n - 1, 0, NULL) + fib(fr, n - 2, 0, NULL);
 *         long b = fib(fr, n - 2, 0, NULL);
 *         return f_sync_long(&fr, fib) + b;
 *     }
 * Naming the function lets an unstolen child be a direct call, which the
 * compiler may inline as in the sequential program; a sync that names
 * another function still returns its fork's result, through the library.
 * The frame, kept in a register, is where the next fork writes, so that a
 * fork does not wait for the previous one's store of the deque's bottom
 * (Lace passes its deque head so).  Untyped code that calls a typed
 * function passes f_frame_here().  A frame that is out of date (untyped
 * children were forked or joined since) is correct too: the fork or sync
 * goes through the library, which sets it right.
 */
typedef struct f_task_ *f_frame;
typedef long (*f_long_func)(f_frame fr, long i, long j, void *arg);
typedef double (*f_double_func)(f_frame fr, long i, long j, void *arg);
typedef void *(*f_ptr_func)(f_frame fr, long i, long j, void *arg);

F_API int f_fork_long(f_frame *fr, f_long_func fn, long i, long j, void *arg);
F_API long f_sync_long(f_frame *fr, f_long_func fn);
F_API int f_fork_double(f_frame *fr, f_double_func fn, long i, long j, void *arg);
F_API double f_sync_double(f_frame *fr, f_double_func fn);
F_API int f_fork_ptr(f_frame *fr, f_ptr_func fn, long i, long j, void *arg);
F_API void *f_sync_ptr(f_frame *fr, f_ptr_func fn);
F_API f_frame f_frame_here(void);

/*
 * A typed root: from the main thread between runs, run fn(frame, i, j,
 * arg) on the servers and store its value in *result (unless result is
 * NULL), in one call:
 *     long n;
 *     if (f_run_long(fib, 40, 0, NULL, &n) < 0) ...
 * It is a run: f_parallel with fn as one more root filament, so whatever
 * was created before it runs too.  0, or F_ESTATE (not from the main
 * thread between runs), F_EINVAL (fn is NULL), F_ENOMEM.  See f_fork(3).
 */
F_API int f_run_long(f_long_func fn, long i, long j, void *arg, long *result);
F_API int f_run_double(f_double_func fn, long i, long j, void *arg, double *result);
F_API int f_run_ptr(f_ptr_func fn, long i, long j, void *arg, void **result);

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

/* A word of the kind for fn. */
static inline unsigned long f_word_(unsigned long kind, void (*fn)(void))
{
    unsigned long tag = kind != F_KIND_VOID_ ? kind | F_NOT_UNTYPED_ : 0;
    unsigned long word = (unsigned long)fn | tag << F_KIND_SHIFT_;
#if defined(__GNUC__)
    /* Made once per function and kept in a register, where the fork stores
     * it and the sync compares with it: without this the compiler makes it
     * again at each use, two instructions each time. */
    __asm__("" : "+r"(word));
#endif
    return word;
}

struct f_task_ {
    unsigned long word_;      /* f_word_: fn, and the kind above it */
    long i_;
    long j_;
    void *arg_;
    f_value result_;
    volatile unsigned long done_;   /* written by a thief */
    volatile unsigned long thief_;
    /* Forks made into this slot: the owner's, summed by stats.c.  One count
     * per slot, not per deque, so that a fork's increment does not wait for
     * the previous fork's through memory, as one counter's would. */
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
#else
extern F_API _Thread_local struct f_deque_ f_deque_;
#define F_LIKELY_(x) (x)
#define F_LOAD_BOUND_(p) (*(struct f_task_ *volatile *)(p))
#define F_REREAD_() ((void)0)
#endif

/* Is t below the bound at p, read once?  On x86-64 the compare reads it
 * itself (one instruction where a compiler makes a volatile load and a
 * compare two), and the branch follows it in the same asm: a flag output
 * let the compiler put the fork's argument arithmetic in between, and
 * then keep the flag in a register (setb, test: a recursive pi took 115
 * instructions per leaf, 106 with the branch here).  The compilers that
 * have flag outputs have asm goto.  Elsewhere, and for ThreadSanitizer,
 * F_LOAD_BOUND_. */
#if defined(__GNUC__) && defined(__x86_64__) && defined(__GCC_ASM_FLAG_OUTPUTS__) &&            \
    !defined(__SANITIZE_THREAD__)
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

static inline void f_write_slot_(struct f_deque_ *d, struct f_task_ *t, unsigned long kind,
                                 void (*fn)(void), long i, long j, void *arg)
{
    t->word_ = f_word_(kind, fn);
    t->i_ = i;
    t->j_ = j;
    t->arg_ = arg;
    t->forks_++;
    d->bottom_ = t + 1;
}

static inline int f_push_(struct f_deque_ *d, struct f_task_ *t, unsigned long kind,
                          void (*fn)(void), long i, long j, void *arg)
{
    if (fn == (void (*)(void))0)
        return F_ASK_;
    if (F_LIKELY_(f_below_bound_(t, &d->limit_))) {
        f_write_slot_(d, t, kind, fn, i, j, arg);
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

/* Pop and call the running filament's private untyped children, newest
 * first, each as a filament of its own (its children begin at its slot);
 * the library does the rest (marked slots, a typed child).  An untyped
 * slot's word is its function; any other, or a marked one, is negative.
 * A child returns with base_ as it found it, its slot, and the last child
 * lies at base: so base_ is base again when the loop ends, and only the
 * library needs it put back. */
static inline int f_join_inline_(void)
{
    struct f_deque_ *d = &f_deque_;
    struct f_task_ *base = d->base_, *t = d->bottom_;
    if (t <= base)
        return 0;
    do {
        unsigned long word = (--t)->word_;
        if (!F_LIKELY_((long)word >= 0)) {
            d->base_ = base;
            return (f_join)();
        }
        d->bottom_ = t;
        d->base_ = t;
        ((f_func)word)(t->i_, t->j_, t->arg_);
    } while ((t = d->bottom_) > base);
    return 0;
}
#define f_join() f_join_inline_()

/* The library's typed fork and sync, for what the inlines cannot decide;
 * the caller then takes the bottom as its frame. */
F_API int f_fork_typed_(unsigned long kind, void (*fn)(void), long i, long j, void *arg);
F_API f_value f_sync_typed_(unsigned long kind);

/* Typed forks: push at the bottom, if it is below peak_, the highest
 * bottom so far (a new peak goes to the library), which a thief that asks
 * for work zeroes, and take the slot above as the frame (the library's
 * path does the same where the frame was not the bottom: untyped children
 * left above it, or a join since).  No pruning threshold stops them: a pushed
 * child that its sync calls costs no more than the call a pruned fork
 * would make, and leaves that call in tail position (f_fork(3)); the
 * library prunes them only in a full deque.  A sync pops the slot under
 * the frame, if the frame is the bottom; the library marks the slot below
 * the calling filament's first child wherever it hands out a frame there
 * (doc/design.md, "Fork/join"), so no sync pops a slot of another's
 * without a bound to compare with.  A slot whose word is the named
 * function of this kind (only a typed fork of it writes one; a marked one
 * differs) is called directly, as a plain call with nothing after it (the
 * caller's base_; its leftovers for the caller's next sync or join), so
 * that the compiler can make the recursion a loop.  Every fork stores j
 * and arg, so that this is one compare whatever the fork passed: a flag
 * for forks without them saved their two stores but cost the syncs of
 * the forks with them a second compare (doc/design.md, "Fork/join").  A
 * pruned child's kept result (F_KIND_DONE_) is returned; the rest goes to
 * the library. */
#define F_TYPED_FORK_(T, name, KIND, member)                                                   \
    static inline int f_fork_##name##_inline_(f_frame *fr, f_##name##_func fn, long i, long j, \
                                              void *arg)                                       \
    {                                                                                          \
        struct f_deque_ *d = &f_deque_;                                                        \
        struct f_task_ *t;                                                                     \
        int rc;                                                                                \
        if (fr == (f_frame *)0)  /* no frame: refused as a NULL fn is (F_ESTATE first) */      \
            return f_fork_typed_(KIND, (void (*)(void))0, i, j, arg);                          \
        t = d->bottom_;                                                                        \
        if (F_LIKELY_(f_below_bound_(t, &d->peak_) && fn != (f_##name##_func)0)) {             \
            f_write_slot_(d, t, KIND, (void (*)(void))fn, i, j, arg);                          \
            *fr = t + 1;                                                                       \
            return 0;                                                                          \
        }                                                                                      \
        rc = f_fork_typed_(KIND, (void (*)(void))fn, i, j, arg);                               \
        *fr = d->bottom_;                                                                      \
        return rc;                                                                             \
    }                                                                                          \
    static inline T f_sync_##name##_inline_(f_frame *fr, f_##name##_func fn)                   \
    {                                                                                          \
        struct f_deque_ *d = &f_deque_;                                                        \
        struct f_task_ *t;                                                                     \
        T r;                                                                                   \
        if (fr == (f_frame *)0)  /* as its fork: nothing to sync */                            \
            return (T)0;                                                                       \
        t = *fr;                                                                               \
        if (F_LIKELY_(t == d->bottom_)) {                                                      \
            if (F_LIKELY_((--t)->word_ == f_word_(KIND, (void (*)(void))fn))) {                \
                d->bottom_ = t;                                                                \
                *fr = t;                                                                       \
                return fn(t, t->i_, t->j_, t->arg_);                                           \
            }                                                                                  \
            F_REREAD_();                                                                       \
            if (t->word_ == f_word_(F_KIND_DONE_, (void (*)(void))0)) {                        \
                d->bottom_ = t;                                                                \
                *fr = t;                                                                       \
                return t->result_.member;                                                      \
            }                                                                                  \
        }                                                                                      \
        r = f_sync_typed_(KIND).member;                                                        \
        *fr = d->bottom_;                                                                      \
        return r;                                                                              \
    }
F_TYPED_FORK_(long, long, F_KIND_LONG_, l)
F_TYPED_FORK_(double, double, F_KIND_DOUBLE_, d)
F_TYPED_FORK_(void *, ptr, F_KIND_PTR_, p)
#undef F_TYPED_FORK_
#define f_fork_long(fr, fn, i, j, arg) f_fork_long_inline_((fr), (fn), (i), (j), (arg))
#define f_sync_long(fr, fn) f_sync_long_inline_((fr), (fn))
#define f_fork_double(fr, fn, i, j, arg) f_fork_double_inline_((fr), (fn), (i), (j), (arg))
#define f_sync_double(fr, fn) f_sync_double_inline_((fr), (fn))
#define f_fork_ptr(fr, fn, i, j, arg) f_fork_ptr_inline_((fr), (fn), (i), (j), (arg))
#define f_sync_ptr(fr, fn) f_sync_ptr_inline_((fr), (fn))

/* ------------------------------------------------------------ reductions */

enum f_op { F_SUM, F_MIN, F_MAX };

/*
 * Opaque to programs: one padded slot per server, combined by
 * f_reduction_value().  The layout below exists only for the inline
 * f_reduce() fast path.
 */
typedef struct f_reduction f_reduction;
struct f_reduction {
    enum f_op op_;
    int nslots_;
    double *slots_;  /* one per server, a cache line apart */
};

F_API f_reduction *f_new_reduction(enum f_op op);
F_API void f_free_reduction(f_reduction *r);
F_API double f_reduction_value(const f_reduction *r);
F_API void f_reduction_reset(f_reduction *r);
F_API void f_reduce(f_reduction *r, double v);
F_API double *f_reduction_local(f_reduction *r);

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

/* ----------------------------------------------------------------- locks */

/* Public only so that it can be embedded; the field is private. */
struct f_lock { size_t f_word_; };
typedef struct f_lock f_lock_t;
#define F_LOCK_INITIALIZER { 0 }

F_API void f_lock_init(f_lock_t *l);
F_API void f_lock(f_lock_t *l);
F_API void f_unlock(f_lock_t *l);

/* ---------------------------------------------------------------- memory */

F_API void *f_malloc(size_t size);
F_API void f_free(void *p);

/* ------------------------------------------------ continuations [§2.2] */

/*
 * A continuation is one zeroed block of `size` bytes per server, kept across
 * barriers: the filaments of one phase leave locally computed values in
 * their server's block and the filaments of the next phase on that server
 * pick them up, without shared globals or locks.
 */
typedef struct f_continuation f_continuation;

F_API f_continuation *f_new_continuation(size_t size);
F_API void *f_continuation_local(f_continuation *c);
F_API void *f_continuation_of(f_continuation *c, int server);
F_API void f_free_continuation(f_continuation *c);

/* ------------------------------------------- variable arguments [§4.1] */

/*
 * A variable-argument filament receives its arguments as an array of
 * f_value, one per character of its format string: 'l' long, 'd' double,
 * 'p' pointer.  At most F_MAX_ARGS arguments.
 */
typedef void (*f_vfunc)(const f_value *args);
#define F_MAX_ARGS 8

F_API int f_rtc_vthread(int server, f_vfunc fn, const char *format, ...);
F_API int f_iterative_vthread(int server, f_vfunc fn, const char *format, ...);
F_API int f_vfork(f_vfunc fn, const char *format, ...);

/* ------------------------------------------------------------ statistics */

struct f_stats {
    unsigned long filaments_run;   /* RTC, iterative (per pass) and fork/join */
    unsigned long forks;
    unsigned long pruned_forks;
    unsigned long steals;          /* successful: filaments taken from another server */
    unsigned long steal_attempts;
    unsigned long barrier_episodes;
    unsigned long idle_ns;         /* time waiting: for work, at a barrier, in a join (coarse clock) */
    unsigned long peak_live_forks; /* fork/join filaments queued or running at once */
};

/* server = 0 .. f_num_servers()-1, or F_ANY for the sum (peak: the maximum). */
F_API int f_get_stats(int server, struct f_stats *out);
F_API int f_reset_stats(void);

#ifdef __cplusplus
}
#endif
#endif /* FILAMENTS_H */
