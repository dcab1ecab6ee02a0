/*
 * app.h - what every application program shares [paper §3]: the driver
 * (options, timing, the check, the output line, exit status), the digest,
 * the strips of rows, and the spin barrier of the coarse-grain programs.
 *
 * An app is one program built from <name>-common.c (problem setup, the
 * cheap check, the result to digest), <name>-seq.c, <name>-cg.c and
 * <name>-fil.c; <name>-common.c fills in a struct app and calls app_main(),
 * which does the rest:
 *
 *   <name> --impl=NAME --servers=N --size=N [--verify] [app options]
 *
 * prints exactly one line on stdout,
 *
 *   app=jacobi impl=fil servers=2 size=1024 iters=100 seconds=0.123456 check=ok digest=...
 *
 * and exits 0 (check=ok), 1 (check=FAIL, or the program could not run: one
 * line on stderr says why) or 2 (a bad option: one line on stderr).
 *
 * This header includes neither <filaments.h> nor <atomic_ops.h>: the
 * sequential programs include it and contain no parallel constructs.
 */
#ifndef APP_H
#define APP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Bitwise-identical results need the arithmetic of the source: no fused
 * multiply-add where the source has a multiply and an add.  GCC: the
 * -ffp-contract=off in Makefile.am (it ignores this pragma); clang: both. */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

#define APP_CACHE_LINE 64

#if defined(__GNUC__)
#define APP_NORETURN __attribute__((noreturn))
#define APP_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define APP_NORETURN
#define APP_PRINTF(f, a)
#endif

/* ----------------------------------------------------------- the driver */

/*
 * One variant of the program.  run() does the whole computation on a
 * problem that create() has set up: it is what `seconds` times, including
 * the start and the end of its threads or servers and the creation of its
 * filaments, excluding setup, allocation and the check.  run() reports an
 * error it cannot recover from with app_fail().
 */
struct app_impl {
    const char *name;
    void (*run)(void *problem, int servers);
    int parallel;      /* 0: sequential; --servers must be 1.  APP_PARALLEL, APP_MPI */
    const char *help;  /* one line for --help */
};

/* Bits of struct app_impl's `parallel`: several threads or servers; one
 * process per MPI rank, which mpirun starts (struct app_mpi). */
enum { APP_PARALLEL = 1, APP_MPI = 2 };

/*
 * The MPI programs' driver (app-mpi.c, built where configure found MPI):
 * an impl with APP_MPI runs on every rank, between begin() and end();
 * the run is timed between two sync()s, collect() then brings the result
 * to rank 0, which alone checks it and prints the line, with ranks=R.
 */
struct app_mpi {
    void (*begin)(int *argc, char ***argv, int *rank, int *ranks);
    void (*sync)(void);
    void (*collect)(void *problem);
    void (*end)(void);
};

/* An option of one app, beyond the common ones; `value` holds the default. */
enum app_type { APP_LONG, APP_DOUBLE, APP_CHOICE };

/* The value of an APP_CHOICE option (min and max unused): one of `names`,
 * ended by NULL; `chosen` is its index. */
struct app_choice {
    const char *const *names;
    long chosen;
};
struct app_option {
    const char *name;  /* the long name, without "--" */
    enum app_type type;
    double min, max;   /* the accepted range */
    int open_min;      /* 1: min itself is excluded (omega > 0) */
    int open_max;
    void *value;       /* long *, double * or struct app_choice * */
    const char *help;
};

/* The common options, as parsed; app-specific ones land in their `value`. */
struct app_args {
    const struct app_impl *impl;
    int servers;
    long size;
    int verify;
};

struct app {
    const char *name;                 /* "jacobi": the output's app= and messages */
    const struct app_impl *impls;     /* ended by a NULL name; the first is the sequential one */
    const struct app_option *options; /* ended by a NULL name; may be NULL */
    long size_min, size_max, size_default;
    /* Bytes the problem needs at this size (sum of its arrays), or 0 if
     * that overflows size_t: a size that does not fit in memory is a bad
     * option, not a crash. */
    size_t (*bytes)(long size);
    /* Allocate and set up a problem; NULL when out of memory. */
    void *(*create)(const struct app_args *args);
    /* The cheap check, after the timed run: 1 ok, 0 wrong. */
    int (*check)(void *problem);
    /* The result, compared bitwise by --verify and digested. */
    const void *(*result)(void *problem, size_t *bytes);
    /* Optional: print app fields such as " iters=100" (leading space). */
    void (*fields)(void *problem, FILE *out);
    void (*destroy)(void *problem);
    /* Optional: the MPI driver, for the impls with APP_MPI. */
    const struct app_mpi *mpi;
};

/* Parse argv, set up, run the impl timed, check, print the line; returns
 * the exit status (0 ok, 1 FAIL).  Bad options exit with status 2. */
int app_main(const struct app *app, int argc, char **argv);

/* Report an error that stops the program: one line "<app>: <message>" on
 * stderr, exit status 1. */
APP_NORETURN APP_PRINTF(1, 2) void app_fail(const char *fmt, ...);

/* One line "<app>: <message>" on stderr, from rank 0 only under mpirun:
 * for a bad option found after the parse (app-mpi.c), before exit status 2. */
APP_PRINTF(1, 2) void app_report(const char *fmt, ...);

/* For the Filaments programs: fail with f_strerror(rc) if rc < 0. */
void app_check_f(int rc, const char *what);

/*
 * The fork/join peers' task cutoff (OpenMP, oneTBB): recursion depth
 * `levels` + ceil(log2(servers)), below which a peer makes no more tasks
 * and calls its sequential code; enough tasks for every thread, few enough
 * that a task costs little against its work.  Declared again in app-tbb.h.
 */
int app_peer_depth(int levels, int servers);

/* Wall-clock seconds from an arbitrary origin (CLOCK_MONOTONIC). */
double app_now(void);

/* 64-bit FNV-1a of n bytes. */
uint64_t app_digest(const void *p, size_t n);

/* Deterministic pseudo-random numbers (splitmix64): the same inputs on
 * every machine and in every program, from a seed. */
static inline uint64_t app_rand(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* Uniform in [0, 1), a multiple of 2^-53. */
static inline double app_rand_double(uint64_t *state)
{
    return (double)(app_rand(state) >> 11) * 0x1.0p-53;
}

/* Memory: line-aligned, zeroed, app_fail() when out of memory.  n * size
 * overflowing size_t is out of memory too. */
void *app_alloc(size_t n, size_t size);
void app_free(void *p);

/* A full ring buffer of `cap` elements of `size` bytes whose first is at
 * `head`: a new one of 2 * cap elements holding the same ones in order from
 * index 0; the old one is freed.  For the coarse-grain bags of tasks. */
void *app_ring_grow(void *ring, size_t head, size_t cap, size_t size);

/* n * size + *total, or 0 if it overflows: for struct app's bytes(). */
size_t app_bytes_add(size_t total, size_t n, size_t size);

/*
 * Strips: rows 0 .. n-1 dealt to `parts` contiguous strips, row k to strip
 * k * parts / n (the paper's server = i * nservers / n).  Strip t is rows
 * [app_strip_begin(t), app_strip_begin(t + 1)).
 */
static inline long app_strip_of(long k, long n, int parts)
{
    return k * parts / n;
}

static inline long app_strip_begin(int t, long n, int parts)
{
    return ((long)t * n + parts - 1) / parts;
}

/* ------------------------------------ the coarse-grain programs' barrier */

/*
 * A sense-reversing spin barrier for `n` threads (doc/style.md, "Atomics"): the
 * last to arrive may run a serial section alone before it releases the
 * others.  Waiters spin with a pause, then sched_yield() (so 8 threads on 2
 * cores still make progress).  Built on libatomic_ops in app.c; the words
 * are size_t here so that this header needs no <atomic_ops.h>.
 */
struct app_barrier {
    _Alignas(APP_CACHE_LINE) volatile size_t count;  /* arrivals: every thread */
    _Alignas(APP_CACHE_LINE) volatile size_t sense;  /* flipped by the last arrival */
    size_t n;
    size_t spin;  /* polls with a pause before each sched_yield() */
};

/* A thread's own side of the barrier: its sense (a local variable of the thread). */
struct app_barrier_self {
    size_t sense;
};

void app_barrier_init(struct app_barrier *b, int n);

/*
 * Wait until all n threads have arrived.  The last to arrive runs
 * serial(arg) (if not NULL) while the others wait, then releases them;
 * everything written before any thread arrived, and by serial(), is
 * visible to every thread after the call.
 */
void app_barrier_wait(struct app_barrier *b, struct app_barrier_self *self,
                      void (*serial)(void *arg), void *arg);

/*
 * Run fn(t, arg) for t = 0 .. n-1, one pthread each (thread 0 too: the
 * main thread only waits), and join them.  app_fail() if a thread cannot be
 * started.
 */
void app_threads_run(int n, void (*fn)(int t, void *arg), void *arg);

/* A double on its own cache line: per-thread slots of coarse-grain programs. */
struct app_slot {
    _Alignas(APP_CACHE_LINE) double v;
};

/* The largest of n slots' values, and 0 if all are smaller (changes and
 * residuals are never negative). */
double app_slots_max(const struct app_slot *slot, int n);

#endif /* APP_H */
