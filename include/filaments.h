/*
 * filaments.h - the public interface of libfilaments.
 *
 * Fine-grain parallelism on shared-memory machines after Engler, Andrews and
 * Lowenthal, "Filaments: Efficient Support for Fine-Grain Parallelism",
 * TR 93-13a (1994): stateless run-to-completion, iterative (barrier) and
 * fork/join filaments, run by one server thread per core.
 *
 * What a program calls, in about the order filaments(7) teaches it, with a
 * line or two each; each call's man page has the rest.  Every public name
 * starts with f_ or F_.  The calls marked "Inline" are also inline functions
 * behind macros of their own names, as getc is: <filaments/inline-private.h>,
 * which this header includes at its end, holds them and the structures they
 * need.  Names that end in an underscore are theirs, not the interface.
 */
#ifndef FILAMENTS_H
#define FILAMENTS_H

#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define F_API __attribute__((visibility("default")))
#else
#define F_API
#endif

/* ------------------------------------------------------------- filaments */

/* A filament: a function and its arguments, no stack, no state. */
typedef void (*f_func)(long i, long j, void *arg);

/* An argument of a variable-argument filament, one per character of its
 * format string: 'l' long, 'd' double, 'p' pointer; at most F_MAX_ARGS. */
typedef union f_value {
    long l;
    double d;
    void *p;
} f_value;
typedef void (*f_vfunc)(const f_value *args);
#define F_MAX_ARGS 8

/* ------------------------------------------------------------ life cycle */

/* Start nservers servers (0: FILAMENTS_SERVERS, else one per processor). */
F_API int f_initialize(int nservers);
/* Run what was created, and return when all of it is done. */
F_API int f_parallel(void);
/* From the main thread between runs: every server calls
 * create(server, nservers, arg) at once and creates its own filaments,
 * for itself or F_ANY, for the next f_parallel; all or nothing. */
typedef int (*f_create_func)(int server, int nservers, void *arg);
F_API int f_create_per_server(f_create_func create, void *arg);
/* Stop the servers and free everything; f_initialize may follow. */
F_API void f_finalize(void);
F_API int f_num_servers(void);
/* The calling filament's server, 0 .. f_num_servers() - 1. */
F_API int f_my_server(void);

/* As a server argument: let the library place the filament and balance. */
#define F_ANY (-1)

/* ---------------------------------------------- run-to-completion [§2.1] */

/* fn(i, j, arg), once, on `server` or F_ANY.  Inline for a named server,
 * from the main thread or from a creator for its own. */
F_API int f_rtc_thread(int server, f_func fn, long i, long j, void *arg);
F_API int f_rtc_vthread(int server, f_vfunc fn, const char *format, ...);

/* ------------------------------------------------ iterative [§2.2, §4.4] */

/* A phase's sequential code, run by one server at each barrier while the
 * others wait: F_DONE ends the passes, F_NOTDONE runs another. */
enum { F_NOTDONE = 0, F_DONE = 1 };
typedef int (*f_seq_func)(void *arg);

/* Open a phase: the iterative filaments created next belong to it. */
F_API int f_new_barrier(f_seq_func seq, void *arg);
/* fn(i, j, arg) in every pass of the current phase.  Inline where it
 * extends the run last created on its server (same fn, i, arg; next j). */
F_API int f_iterative_thread(int server, f_func fn, long i, long j, void *arg);
/* A row in one call: fn(i, j, arg) for j_begin <= j < j_end. */
F_API int f_iterative_row(int server, f_func fn, long i, long j_begin, long j_end, void *arg);
F_API int f_iterative_vthread(int server, f_vfunc fn, const char *format, ...);
/* Which filaments of the phases created next may move between servers,
 * within a pass and between passes, where some server is slower: none,
 * those of phases created all with F_ANY (the default), or all; with all
 * at f_parallel, the run's RTC filaments given a server may move too. */
enum { F_ADAPT_NONE = 0, F_ADAPT_ANY = 1, F_ADAPT_ALL = 2 };
F_API int f_set_adaptive(int mode);
F_API int f_get_adaptive(void);

/* ------------------------------------------------------------------ runs */

/* A run (same fn, i and arg, consecutive j) is one call of fn's range
 * version, range(i, j_begin, j_end, arg), if the program names one. */
typedef void (*f_range_func)(long i, long j_begin, long j_end, void *arg);
F_API int f_set_range_version(f_func point, f_range_func range);

/* Defines `static void point_range(long, long, long, void *)` from a
 * (preferably static inline) point function:
 *     F_RANGE_VERSION(relax)  ...  f_set_range_version(relax, relax_range); */
#define F_RANGE_VERSION(point)                                                 \
    static void point##_range(long f_i_, long f_jb_, long f_je_, void *f_a_)   \
    {                                                                          \
        for (long f_j_ = f_jb_; f_j_ < f_je_; ++f_j_)                          \
            point(f_i_, f_j_, f_a_);                                           \
    }

/* ------------------------------------------------ fork/join [§2.3, §4.5] */

/* Fork fn(i, j, arg) as a child of the calling filament, or a root filament
 * from the main thread; join waits for the caller's children.  Inline. */
F_API int f_fork(f_func fn, long i, long j, void *arg);
F_API int f_join(void);
F_API int f_vfork(f_vfunc fn, const char *format, ...);

/* An untyped fork made while more than `threshold` forked filaments are
 * queued on its server is a call (pruned); 0: never; F_PRUNE_AUTO adapts. */
#define F_PRUNE_AUTO (-1L)
F_API void f_set_prune(long threshold);
F_API long f_get_prune(void);

/* As f_fork, but a pruned fork calls seq, fn's copy whose forks are plain
 * calls, so that the pruned subtree runs without the library [§4.5]. */
F_API int f_fork_seq(f_func fn, f_func seq, long i, long j, void *arg);

/* Nonzero where the library prunes the calling filament's forks now: the
 * caller may run its subtree as a plain sequential call, as an OpenMP task
 * does where omp_in_final() is true [§4.5]; 0 outside a filament.  Inline. */
F_API int f_pruning(void);

/*
 * Value-returning forks: the child's result comes back from the matching
 * sync, which names the function its fork named; syncs match forks newest
 * first.  A typed function takes its frame first and passes it on:
 *     static long fib(f_frame fr, long n, long unused, void *arg)
 *     {
 *         if (n < 2)
 *             return n;
 *         f_fork_long(&fr, fib, n - 1, 0, NULL);   (cannot fail: no check needed)
 *         long b = fib(fr, n - 2, 0, NULL);
 *         return f_sync_long(&fr, fib) + b;
 *     }
 * Untyped code passes f_frame_here().  Inline; see f_fork(3).
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

/* As the typed forks, but pruned as untyped forks are: a pruned fork calls
 * seq, fn's copy whose forks are plain calls, and keeps its value for the
 * sync, which names fn.  Inline. */
F_API int f_fork_long_seq(f_frame *fr, f_long_func fn, f_long_func seq, long i, long j, void *arg);
F_API int f_fork_double_seq(f_frame *fr, f_double_func fn, f_double_func seq, long i, long j,
                            void *arg);
F_API int f_fork_ptr_seq(f_frame *fr, f_ptr_func fn, f_ptr_func seq, long i, long j, void *arg);

/* A typed root, from the main thread between runs: f_parallel with
 * fn(frame, i, j, arg) as one more root, its value in *result. */
F_API int f_run_long(f_long_func fn, long i, long j, void *arg, long *result);
F_API int f_run_double(f_double_func fn, long i, long j, void *arg, double *result);
F_API int f_run_ptr(f_ptr_func fn, long i, long j, void *arg, void **result);

/* ------------------------------------------------- arguments: firstprivate */

/*
 * A filament with typed arguments, as OpenMP's firstprivate copies them:
 *     F_TASK_3(void, update, struct lu *, m, long, ii, long, kk) { ... }
 *     F_FORK(update, m, ii, kk);
 * F_TASK_n(ret, name, T1, a1, ..., Tn, an) { body }, n = 1 .. 10, defines
 * `name` and a body that takes a1 .. an (each type one declaration
 * specifier: a typedef for an array or a function pointer).  ret void: name
 * is an f_func; ret long, double or ptr: a typed function for the typed
 * forks and syncs, whose body returns that and has its frame as `fr`.  A
 * fork copies the arguments into the child's i, j and arg where they fit
 * (three words: no storage), else into a block from malloc that the child
 * frees.  See F_TASK(3).
 */
#define F_TASK_1(ret, name, T1, a1) F_TASK_N_(1, ret, name, T1, a1)
#define F_TASK_2(ret, name, T1, a1, T2, a2) F_TASK_N_(2, ret, name, T1, a1, T2, a2)
#define F_TASK_3(ret, name, T1, a1, T2, a2, T3, a3)                            \
    F_TASK_N_(3, ret, name, T1, a1, T2, a2, T3, a3)
#define F_TASK_4(ret, name, T1, a1, T2, a2, T3, a3, T4, a4)                    \
    F_TASK_N_(4, ret, name, T1, a1, T2, a2, T3, a3, T4, a4)
#define F_TASK_5(ret, name, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5)            \
    F_TASK_N_(5, ret, name, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5)
#define F_TASK_6(ret, name, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6)    \
    F_TASK_N_(6, ret, name, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6)
#define F_TASK_7(ret, name, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7) \
    F_TASK_N_(7, ret, name, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7)
#define F_TASK_8(ret, name, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7, T8, a8) \
    F_TASK_N_(8, ret, name, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7, T8, a8)
#define F_TASK_9(ret, name, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7, T8, a8,   \
                 T9, a9)                                                                      \
    F_TASK_N_(9, ret, name, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7, T8, a8,    \
              T9, a9)
#define F_TASK_10(ret, name, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7, T8, a8,  \
                  T9, a9, T10, a10)                                                           \
    F_TASK_N_(10, ret, name, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7, T8, a8,   \
              T9, a9, T10, a10)

/* Fork a task of ret void with its arguments, as f_fork or f_fork_seq
 * (seq: a task of the same argument types); F_ENOMEM: no block. */
#define F_FORK(name, ...) name##_fork_((f_func)0, __VA_ARGS__)
#define F_FORK_SEQ(name, seq, ...) (F_SAME_ARGS_(name, seq) name##_fork_(seq, __VA_ARGS__))
/* The same for typed tasks, as f_fork_long and its kin; f_sync_long(fr,
 * name) and its kin sync them. */
#define F_FORK_LONG(fr, name, ...) name##_fork_((fr), (f_long_func)0, __VA_ARGS__)
#define F_FORK_LONG_SEQ(fr, name, seq, ...)                                    \
    (F_SAME_ARGS_(name, seq) name##_fork_((fr), seq, __VA_ARGS__))
#define F_FORK_DOUBLE(fr, name, ...) name##_fork_((fr), (f_double_func)0, __VA_ARGS__)
#define F_FORK_DOUBLE_SEQ(fr, name, seq, ...)                                  \
    (F_SAME_ARGS_(name, seq) name##_fork_((fr), seq, __VA_ARGS__))
#define F_FORK_PTR(fr, name, ...) name##_fork_((fr), (f_ptr_func)0, __VA_ARGS__)
#define F_FORK_PTR_SEQ(fr, name, seq, ...)                                     \
    (F_SAME_ARGS_(name, seq) name##_fork_((fr), seq, __VA_ARGS__))
/* A typed task as a root, as f_run_long and its kin: F_RUN(fib, &n, 30). */
#define F_RUN(name, result, ...) name##_run_((result), __VA_ARGS__)
/* Call a task's body, a plain call: F_CALL(update, m, ii, kk); a typed
 * one's with its frame first, F_CALL(fib, fr, n - 2). */
#define F_CALL(name, ...) name##_body_(__VA_ARGS__)

/* -------------------------------------------------------- parallel loops */

/*
 * A parallel loop, as `#pragma omp parallel for` runs one: body(lo, hi,
 * arg) over strips [lo, hi) that together cover [begin, end) once, one
 * strip per server, server s's [begin + s*n/p, begin + (s+1)*n/p) for n
 * iterations and p servers, the same strips on every call; returns once
 * every strip has run.  From the main thread another server's strip
 * comes in up to 8 parts, of which the main thread runs those the server
 * has not taken when strip 0 is done (not with F_ADAPT_NONE).
 * F_ADAPT_ALL (f_set_adaptive) has the main thread's loops claim their
 * strips in chunks, a late server's taken by the others, and move the
 * strips' ends between calls toward what each server ran; reductions
 * keep the even strips, whole.
 * From the main thread outside f_parallel a call is
 * a run of its own, in which the main thread runs strip 0; from a filament
 * the strips are forked as its children and joined (TBB's parallel_for in
 * a task); from a loop's body the range runs there, serially (OpenMP's
 * nested region of one thread).  F_OK, F_EINVAL (body NULL, begin > end)
 * or F_ESTATE; an empty range runs nothing.  See f_parallel_for(3).
 */
typedef void (*f_loop_func)(long begin, long end, void *arg);
F_API int f_parallel_for(long begin, long end, f_loop_func body, void *arg);
/* As `schedule(dynamic, chunk)`: each server claims `chunk` iterations at
 * a time until none are left (F_EINVAL: chunk < 1). */
F_API int f_parallel_for_dynamic(long begin, long end, long chunk, f_loop_func body, void *arg);

/*
 * A reduction loop, as a `reduction` clause: each strip accumulates into a
 * private partial of `size` bytes that starts as a copy of *identity; the
 * partials are then combined into *result in strip order, combine(result,
 * partial_0), ..., combine(result, partial_p-1), on the calling thread,
 * so the same strips give the same bits on every call.
 */
typedef void (*f_combine_func)(void *into, const void *from);
typedef void (*f_reduce_loop_func)(long begin, long end, void *arg, void *partial);
F_API int f_parallel_reduce(long begin, long end, f_reduce_loop_func body, void *arg,
                            void *result, const void *identity, size_t size,
                            f_combine_func combine);

/*
 * A loop's variables without a structure, as F_TASK_n gives a task's:
 *     F_LOOP_2(scale, lo, hi, double *, x, double, k)
 *     {
 *         for (long i = lo; i < hi; ++i)
 *             x[i] *= k;
 *     }
 *     ...  rc = F_PARALLEL_FOR(scale, 0, n, x, 2.0);
 * F_LOOP_n(name, lo, hi, T1, a1, ..., Tn, an) { body }, n = 0 .. 10,
 * defines name, an f_loop_func, whose body sees its strip as lo, hi and
 * the variables as a1 .. an, loaded once per strip (the body is inlined
 * into name).  F_PARALLEL_FOR(name, begin, end, a1, ..., an) runs it as
 * f_parallel_for; F_PARALLEL_FOR_DYNAMIC(name, begin, end, chunk, a1,
 * ..., an) as f_parallel_for_dynamic.  See F_LOOP(3).
 */
#define F_LOOP_0(name, lo, hi) F_LOOP_0_(name, lo, hi)
#define F_LOOP_1(name, lo, hi, T1, a1) F_LOOP_N_(1, name, lo, hi, T1, a1)
#define F_LOOP_2(name, lo, hi, T1, a1, T2, a2) F_LOOP_N_(2, name, lo, hi, T1, a1, T2, a2)
#define F_LOOP_3(name, lo, hi, T1, a1, T2, a2, T3, a3)                                         \
    F_LOOP_N_(3, name, lo, hi, T1, a1, T2, a2, T3, a3)
#define F_LOOP_4(name, lo, hi, T1, a1, T2, a2, T3, a3, T4, a4)                                 \
    F_LOOP_N_(4, name, lo, hi, T1, a1, T2, a2, T3, a3, T4, a4)
#define F_LOOP_5(name, lo, hi, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5)                         \
    F_LOOP_N_(5, name, lo, hi, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5)
#define F_LOOP_6(name, lo, hi, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6)                 \
    F_LOOP_N_(6, name, lo, hi, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6)
#define F_LOOP_7(name, lo, hi, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7)         \
    F_LOOP_N_(7, name, lo, hi, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7)
#define F_LOOP_8(name, lo, hi, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7, T8, a8) \
    F_LOOP_N_(8, name, lo, hi, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7, T8, a8)
#define F_LOOP_9(name, lo, hi, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7, T8, a8, \
                 T9, a9)                                                                       \
    F_LOOP_N_(9, name, lo, hi, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7, T8, a8, \
              T9, a9)
#define F_LOOP_10(name, lo, hi, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7, T8,    \
                  a8, T9, a9, T10, a10)                                                        \
    F_LOOP_N_(10, name, lo, hi, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7, T8,    \
              a8, T9, a9, T10, a10)
#define F_PARALLEL_FOR(name, ...) name##_for_(__VA_ARGS__)
#define F_PARALLEL_FOR_DYNAMIC(name, ...) name##_dynamic_(__VA_ARGS__)

/*
 * The same for a reduction loop, whose body also sees acc, a TR * to its
 * strip's private partial:
 *     F_LOOP_REDUCE_2(dot, lo, hi, double, acc, const double *, x, const double *, y)
 *     {
 *         double s = *acc;
 *         for (long i = lo; i < hi; ++i)
 *             s += x[i] * y[i];
 *         *acc = s;
 *     }
 *     ...  rc = F_PARALLEL_REDUCE(dot, 0, n, F_SUM, &total, x, y);
 * F_PARALLEL_REDUCE(name, begin, end, op, result, a1, ..., an): op F_SUM,
 * F_MIN or F_MAX, for TR long or double (F_EINVAL for another TR), with
 * the op's identity (0, the type's largest, its smallest: for double
 * +-infinity).  F_PARALLEL_REDUCE_WITH(name, begin, end, combine,
 * identity, result, a1, ..., an): the program's own (identity a const TR *).
 */
#define F_LOOP_REDUCE_0(name, lo, hi, TR, acc) F_LOOP_REDUCE_0_(name, lo, hi, TR, acc)
#define F_LOOP_REDUCE_1(name, lo, hi, TR, acc, T1, a1)                                         \
    F_LOOP_REDUCE_N_(1, name, lo, hi, TR, acc, T1, a1)
#define F_LOOP_REDUCE_2(name, lo, hi, TR, acc, T1, a1, T2, a2)                                 \
    F_LOOP_REDUCE_N_(2, name, lo, hi, TR, acc, T1, a1, T2, a2)
#define F_LOOP_REDUCE_3(name, lo, hi, TR, acc, T1, a1, T2, a2, T3, a3)                         \
    F_LOOP_REDUCE_N_(3, name, lo, hi, TR, acc, T1, a1, T2, a2, T3, a3)
#define F_LOOP_REDUCE_4(name, lo, hi, TR, acc, T1, a1, T2, a2, T3, a3, T4, a4)                 \
    F_LOOP_REDUCE_N_(4, name, lo, hi, TR, acc, T1, a1, T2, a2, T3, a3, T4, a4)
#define F_LOOP_REDUCE_5(name, lo, hi, TR, acc, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5)         \
    F_LOOP_REDUCE_N_(5, name, lo, hi, TR, acc, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5)
#define F_LOOP_REDUCE_6(name, lo, hi, TR, acc, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6) \
    F_LOOP_REDUCE_N_(6, name, lo, hi, TR, acc, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6)
#define F_LOOP_REDUCE_7(name, lo, hi, TR, acc, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, \
                        T7, a7)                                                                \
    F_LOOP_REDUCE_N_(7, name, lo, hi, TR, acc, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, \
                     T7, a7)
#define F_LOOP_REDUCE_8(name, lo, hi, TR, acc, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, \
                        T7, a7, T8, a8)                                                        \
    F_LOOP_REDUCE_N_(8, name, lo, hi, TR, acc, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, \
                     T7, a7, T8, a8)
#define F_LOOP_REDUCE_9(name, lo, hi, TR, acc, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, \
                        T7, a7, T8, a8, T9, a9)                                                \
    F_LOOP_REDUCE_N_(9, name, lo, hi, TR, acc, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, \
                     T7, a7, T8, a8, T9, a9)
#define F_LOOP_REDUCE_10(name, lo, hi, TR, acc, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6,    \
                         a6, T7, a7, T8, a8, T9, a9, T10, a10)                                 \
    F_LOOP_REDUCE_N_(10, name, lo, hi, TR, acc, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6,    \
                     a6, T7, a7, T8, a8, T9, a9, T10, a10)
#define F_PARALLEL_REDUCE(name, begin, end, op, ...)                                           \
    name##_reduce_op_((op), (begin), (end), __VA_ARGS__)
#define F_PARALLEL_REDUCE_WITH(name, begin, end, combine, identity, ...)                       \
    name##_reduce_((combine), (identity), (begin), (end), __VA_ARGS__)

/* ------------------------------------------------------------ reductions */

/* One padded slot per server, no lock, combined by f_reduction_value. */
enum f_op { F_SUM, F_MIN, F_MAX };
typedef struct f_reduction f_reduction;

F_API f_reduction *f_new_reduction(enum f_op op);
F_API void f_free_reduction(f_reduction *r);
/* Fold v into the calling server's slot.  Inline. */
F_API void f_reduce(f_reduction *r, double v);
/* The same for a reduction made with that op: no dispatch on it. */
static inline void f_reduce_sum(f_reduction *r, double v);
static inline void f_reduce_min(f_reduction *r, double v);
static inline void f_reduce_max(f_reduction *r, double v);
/* The calling server's slot, for a filament to fold into itself.  Inline. */
F_API double *f_reduction_local(f_reduction *r);
/* In barrier code or between runs: the combined value; back to the op's
 * identity. */
F_API double f_reduction_value(const f_reduction *r);
F_API void f_reduction_reset(f_reduction *r);

/* --------------------------------------------------------- continuations */

/* One zeroed block of `size` bytes per server, kept across barriers: what
 * one phase's filaments leave for the next phase's on the same server. */
typedef struct f_continuation f_continuation;

F_API f_continuation *f_new_continuation(size_t size);
F_API void *f_continuation_local(f_continuation *c);
F_API void *f_continuation_of(f_continuation *c, int server);
F_API void f_free_continuation(f_continuation *c);

/* ----------------------------------------------------------------- locks */

/* A spin lock; never held across f_join (filaments(7), "The lock rule").
 * Public only so that it can be embedded; the field is private. */
struct f_lock { size_t f_word_; };
typedef struct f_lock f_lock_t;
#define F_LOCK_INITIALIZER { 0 }

F_API void f_lock_init(f_lock_t *l);
F_API void f_lock(f_lock_t *l);
F_API void f_unlock(f_lock_t *l);

/* ---------------------------------------------------------------- memory */

/* Memory in whole cache lines, so that servers' data need not share one. */
F_API void *f_malloc(size_t size);
F_API void f_free(void *p);

/* ---------------------------------------------------------------- errors */

/* One list makes both the codes and f_strerror(); numbers are never reused. */
#define F_ERRORS(X)                                                            \
    X(F_EINVAL, -1, "invalid argument")                                        \
    X(F_ENOMEM, -2, "out of memory")                                           \
    X(F_ESTATE, -3, "call not allowed at this point")                         \
    X(F_EIO, -4, "file could not be opened or written")

#define F_ERROR_ENUM_(name, value, text) name = value,
enum { F_ERRORS(F_ERROR_ENUM_) };
#undef F_ERROR_ENUM_

/* Success.  <unistd.h> defines F_OK as 0 for access(2): the same value. */
#ifndef F_OK
#define F_OK 0
#endif

F_API const char *f_strerror(int code);

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

/* -------------------------------------------------------- schedule trace */

/* From the main thread between runs: record each server's passes,
 * barriers, steals and waits into a JSON trace (Perfetto, chrome://tracing)
 * written to path by f_trace_stop or f_finalize; FILAMENTS_TRACE too. */
F_API int f_trace_start(const char *path);
F_API int f_trace_stop(void);

/* --------------------------------------------------- events from outside */

/* During a run, a server with nothing to run calls poll(arg), which may
 * create RTC filaments for events that came (MPI requests: libfilaments-mpi)
 * and returns how many it still awaits; while not 0, the run goes on. */
typedef int (*f_poll_func)(void *arg);
F_API int f_set_poll(f_poll_func poll, void *arg);

/* The inline fast paths of the calls marked "Inline" above: not an interface. */
#include "filaments/inline-private.h"
/* What the parallel loop macros expand to: not an interface. */
#include "filaments/loop-private.h"

#ifdef __cplusplus
}
#endif
#endif /* FILAMENTS_H */
