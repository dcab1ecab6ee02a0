/*
 * micro.c - micro-benchmarks of the library's own overheads: what one empty
 * filament, one barrier episode, one f_parallel and one queued descriptor
 * cost.  The project's version of Price and Lowenthal's Figure 16 (empty
 * procedure, empty thread, joining threads), which scripts/micro-overheads
 * prints, both in nanoseconds and, under callgrind, in instructions.
 *
 *   micro --what=NAME [--count=N] [--servers=S] [--passes=K] [--row=R] [--rounds=R]
 *
 * Each NAME prints one line of key=value pairs, e.g.
 *   what=rtc servers=1 count=1000000 rounds=3 ns_per=12.3 min=12.1 max=12.9
 * where ns_per is the median over the rounds and min, max the extremes.
 * `micro --what=list` prints the names.  Bad options: one line, exit 2.
 *
 * fork-join: a root fork/join filament on one server forks an empty child
 * and joins it, `count` times, pruning off: the child is never stolen and
 * the join runs it.  fork-join-stolen: the same on two servers (at least),
 * but the child must be stolen: the root forks it, forks an empty sibling
 * (the fork that answers the idle server's request by publishing the
 * child), waits until the child has run elsewhere, then joins both.  So a
 * stolen iteration is one stolen and one unstolen fork+join; `stolen=` says
 * how many of the `count` children another server ran (a child not taken
 * within a millisecond is run by the join, and counts as not stolen).
 * fork-sync: as fork-join, with a value-returning child: f_fork_long and
 * f_sync_long, passing i = j = k (arguments the fork stores).
 * fork-sync-noargs: the same with j = 0 and arg = NULL, constants at the
 * fork, as a Fibonacci's forks pass them; the fork stores them all the
 * same (as one pair, and the word and i as another), so that the sync's
 * one compare serves both (doc/design.md).
 *
 * The empty functions are external and noinline, with an empty asm that
 * clobbers memory, so the compiler can neither drop nor inline the calls.
 * micro_rtc_create is external too: scripts/micro-overheads names it in
 * callgrind's --toggle-collect to count creation alone.
 *
 * The `barrier` benchmark interleaves, round by round, the library's
 * barrier (a phase with no filaments whose sequential code counts the
 * passes), a pass (the same with one empty filament per server: pass_),
 * pthread_barrier_wait, a hand-rolled sense-reversing spin barrier, and
 * the spin barrier whose last arriver runs the same counting code
 * (spin_serial_: the library's barrier code runs on the last server to
 * arrive, so its counter moves to that server's core, as here), each with
 * S threads, so the five lines of numbers share the machine's drift.
 * bench/omp-barrier measures `#pragma omp barrier`.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <unistd.h>

#include <atomic_ops.h>

#include "filaments.h"

static const char *prog = "micro";

struct options {
    const char *what;
    long count;
    int servers;
    long passes;
    long row;
    int rounds;
};

/* ------------------------------------------------------------ utilities */

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Sorts v; the median of n values. */
static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* " KEY=median min=.. max=.." with the prefix for min and max. */
static void print_stat(const char *key, const char *prefix, double *v, int n)
{
    double m = median(v, n);
    printf(" %s=%.2f %smin=%.2f %smax=%.2f", key, m, prefix, v[0], prefix, v[n - 1]);
}

static void check(int rc, const char *what)
{
    if (rc < 0) {
        fprintf(stderr, "%s: %s: %s\n", prog, what, f_strerror(rc));
        exit(1);
    }
}

/* ------------------------------------------------------ empty functions */

void micro_empty(long i, long j, void *arg);
long micro_empty_long(f_frame fr, long i, long j, void *arg);
void micro_rtc_create(long n, long row, long step);

__attribute__((noinline)) void micro_empty(long i, long j, void *arg)
{
    __asm__ __volatile__("" ::: "memory");
}

__attribute__((noinline)) long micro_empty_long(f_frame fr, long i, long j, void *arg)
{
    __asm__ __volatile__("" ::: "memory");
    return i;
}

/* Inlinable twin, for a range version that the compiler can make a loop. */
static inline void empty_point(long i, long j, void *arg)
{
    __asm__ __volatile__("" ::: "memory");
}
F_RANGE_VERSION(empty_point)

/* ---------------------------------------------------------- the benches */

static void bench_proc(const struct options *o, double *ns)
{
    for (int r = 0; r < o->rounds; ++r) {
        double t0 = now_ns();
        for (long k = 0; k < o->count; ++k)
            micro_empty(k, k, NULL);
        ns[r] = (now_ns() - t0) / (double)o->count;
    }
}

/*
 * n filaments in rows of `row`, as a grid program creates them (matmul: i
 * per row, j per point), so that no two have the same (i, j).  With i = j
 * = k, gcc 12 at -O2 writes the two equal words as one vector store, three
 * instructions for two.  j goes up by `step`: by 2 no two filaments are
 * consecutive points of a row, which the library would pack (rtc-rows).
 */
__attribute__((noinline)) void micro_rtc_create(long n, long row, long step)
{
    for (long i = 0; i * row < n; ++i) {
        long points = n - i * row < row ? n - i * row : row;
        for (long j = 0; j < points * step; j += step)
            check(f_rtc_thread(0, micro_empty, i, j, NULL), "f_rtc_thread");
    }
}

/* ns per filament: creation and run, or (create_only) creation alone; j
 * going up by step. */
static void bench_rtc(const struct options *o, double *ns, int create_only, long step)
{
    check(f_initialize(o->servers), "f_initialize");
    for (int r = 0; r < o->rounds; ++r) {
        double t0 = now_ns();
        micro_rtc_create(o->count, o->row, step);
        double t1 = now_ns();
        check(f_parallel(), "f_parallel");
        double t2 = now_ns();
        ns[r] = ((create_only ? t1 : t2) - t0) / (double)o->count;
    }
    f_finalize();
}

/*
 * create-per-server: the same n filaments (rows of `row`, j by 2, unpacked)
 * created into fresh queues (a new f_initialize each round) by the main
 * thread, each row on its strip's server, and by the servers themselves,
 * each its strip (f_create_per_server), rounds interleaved; the figure is
 * creation alone, the call included (the servers' wake-up and the wait
 * for the last), not the run.  micro_create_own is external, for
 * callgrind's --toggle-collect, as micro_rtc_create.
 */
struct strips {
    long n, row;
};

static long rows_of(const struct strips *s)
{
    return (s->n + s->row - 1) / s->row;
}

static void create_row(const struct strips *s, int server, long i)
{
    long points = s->n - i * s->row < s->row ? s->n - i * s->row : s->row;
    for (long j = 0; j < 2 * points; j += 2)
        check(f_rtc_thread(server, micro_empty, i, j, NULL), "f_rtc_thread");
}

int micro_create_own(int server, int nservers, void *arg);

__attribute__((noinline)) int micro_create_own(int server, int nservers, void *arg)
{
    const struct strips *s = arg;
    long rows = rows_of(s);
    for (long i = rows * server / nservers; i < rows * (server + 1) / nservers; ++i)
        create_row(s, server, i);
    return 0;
}

static void bench_create_per_server(const struct options *o, double *own, double *main_ns)
{
    struct strips s = { o->count, o->row };
    long rows = rows_of(&s);
    for (int r = 0; r < o->rounds; ++r) {
        check(f_initialize(o->servers), "f_initialize");
        double t0 = now_ns();
        for (long i = 0; i < rows; ++i)
            create_row(&s, (int)(i * o->servers / rows), i);
        main_ns[r] = (now_ns() - t0) / (double)o->count;
        check(f_parallel(), "f_parallel");
        f_finalize();

        check(f_initialize(o->servers), "f_initialize");
        t0 = now_ns();
        check(f_create_per_server(micro_create_own, &s), "f_create_per_server");
        own[r] = (now_ns() - t0) / (double)o->count;
        check(f_parallel(), "f_parallel");
        f_finalize();
    }
}

static long passes_left;

static int count_down(void *arg)
{
    return --passes_left > 0 ? F_NOTDONE : F_DONE;
}

enum iter_shape {
    ALONE,  /* distinct i: one run per filament */
    RUNS,   /* rows of o->row consecutive j, called point by point */
    RANGE   /* the same rows, run by the range version */
};

/* One phase of `count` filaments, run for `passes` passes. */
static void make_phase(const struct options *o, enum iter_shape shape, long passes)
{
    passes_left = passes;
    check(f_new_barrier(count_down, NULL), "f_new_barrier");
    f_func fn = shape == ALONE ? micro_empty : empty_point;
    for (long k = 0; k < o->count; ++k) {
        long i = shape == ALONE ? k : k / o->row;
        int server = (int)(i % o->servers);
        check(f_iterative_thread(server, fn, i, k, NULL), "f_iterative_thread");
    }
}

/* ns per filament per pass; creation is not timed. */
static void bench_iter(const struct options *o, double *ns, enum iter_shape shape)
{
    check(f_initialize(o->servers), "f_initialize");
    if (shape == RANGE)
        check(f_set_range_version(empty_point, empty_point_range), "f_set_range_version");
    for (int r = 0; r < o->rounds; ++r) {
        make_phase(o, shape, o->passes);
        double t0 = now_ns();
        check(f_parallel(), "f_parallel");
        ns[r] = (now_ns() - t0) / ((double)o->count * (double)o->passes);
    }
    f_finalize();
}

/* -------------------------------------------------------- fork + join */

struct fj_run {
    long count;
    int steal;             /* 1: wait until the child runs on another server */
    int typed;             /* f_fork_long and f_sync_long (not stolen): 1, with j = k;
                              TYPED_NOARGS, with j = 0 and arg = NULL */
    volatile AO_t ran_on;  /* the child's server + 1, 0 before it runs */
    long stolen;
};

static void stealable_child(long i, long j, void *arg)
{
    struct fj_run *run = arg;
    AO_store_release(&run->ran_on, (AO_t)f_my_server() + 1);
}

enum { TYPED_NOARGS = 2 };

static void fj_root(long i, long j, void *arg)
{
    struct fj_run *run = arg;
    f_frame fr = f_frame_here();
    for (long k = 0; k < run->count; ++k) {
        if (run->typed) {
            if (run->typed == TYPED_NOARGS)
                check(f_fork_long(&fr, micro_empty_long, k, 0, NULL), "f_fork_long");
            else
                check(f_fork_long(&fr, micro_empty_long, k, k, NULL), "f_fork_long");
            if (f_sync_long(&fr, micro_empty_long) != k) {
                fprintf(stderr, "%s: f_sync_long returned another child's value\n", prog);
                exit(1);
            }
            continue;
        }
        if (!run->steal) {
            check(f_fork(micro_empty, k, k, NULL), "f_fork");
            check(f_join(), "f_join");
            continue;
        }
        AO_store(&run->ran_on, 0);
        check(f_fork(stealable_child, k, k, run), "f_fork");
        check(f_fork(micro_empty, k, k, NULL), "f_fork");
        /* Wait for the thief, ceding the core now and then in case it
         * shares ours; past a millisecond, the join runs the child. */
        AO_t on = 0;
        double give_up = now_ns() + 1e6;
        for (unsigned spin = 1; (on = AO_load_acquire(&run->ran_on)) == 0; ++spin) {
#if defined(__x86_64__) || defined(__i386__)
            __builtin_ia32_pause();
#endif
            if (spin % 64 == 0) {
                sched_yield();
                if (now_ns() > give_up)
                    break;
            }
        }
        check(f_join(), "f_join");
        run->stolen += on != 0 && on != (AO_t)f_my_server() + 1;
    }
}

/*
 * Typed Fibonacci as a user writes it (f_fork(3)): fib_unchecked forks
 * and syncs; fib_checked checks the fork's result and, where it failed,
 * calls the child itself, as a careful C programmer does.  A typed fork
 * cannot fail, and the library's inline says so where the compiler sees it,
 * so that both compile to the same recursion (the issue of a checked fork
 * that cost twice an unchecked one).
 */
#define FIB_N 15
#define FIB_FORKS 986    /* fib(FIB_N + 1) - 1: the non-leaf calls, one fork each */

static long fib_unchecked(f_frame fr, long n, long unused, void *unused2)
{
    if (n < 2)
        return n;
    f_fork_long(&fr, fib_unchecked, n - 1, 0, NULL);
    long b = fib_unchecked(fr, n - 2, 0, NULL);
    return f_sync_long(&fr, fib_unchecked) + b;
}

static long fib_checked(f_frame fr, long n, long unused, void *unused2)
{
    if (n < 2)
        return n;
    if (f_fork_long(&fr, fib_checked, n - 1, 0, NULL) != F_OK)
        return fib_checked(fr, n - 1, 0, NULL) + fib_checked(fr, n - 2, 0, NULL);
    long b = fib_checked(fr, n - 2, 0, NULL);
    return f_sync_long(&fr, fib_checked) + b;
}

/* The root: fib(FIB_N) `calls` times, checking each value (610). */
static long fib_root(f_frame fr, long calls, long checked, void *unused)
{
    for (long k = 0; k < calls; ++k)
        if ((checked ? fib_checked : fib_unchecked)(fr, FIB_N, 0, NULL) != 610) {
            fprintf(stderr, "%s: typed fib(%d) gave a wrong value\n", prog, FIB_N);
            exit(1);
        }
    return 0;
}

/* ns per typed fork + sync, about `count` of them, in calls of fib(FIB_N). */
static void bench_fib(const struct options *o, double *ns, int checked)
{
    long calls = o->count / FIB_FORKS > 0 ? o->count / FIB_FORKS : 1;
    long unused;
    check(f_initialize(o->servers), "f_initialize");
    for (int r = 0; r < o->rounds; ++r) {
        double t0 = now_ns();
        check(f_run_long(fib_root, calls, checked, NULL, &unused), "f_run_long");
        ns[r] = (now_ns() - t0) / ((double)calls * FIB_FORKS);
    }
    f_finalize();
}

/* ns per fork + join (stolen: per iteration); *stolen: children run elsewhere. */
static void bench_fork_join(const struct options *o, double *ns, int steal, int typed,
                            long *stolen)
{
    check(f_initialize(o->servers), "f_initialize");
    f_set_prune(0);
    *stolen = 0;
    for (int r = 0; r < o->rounds; ++r) {
        struct fj_run run = { .count = o->count, .steal = steal, .typed = typed };
        double t0 = now_ns();
        check(f_fork(fj_root, 0, 0, &run), "f_fork");
        check(f_parallel(), "f_parallel");
        ns[r] = (now_ns() - t0) / (double)o->count;
        *stolen += run.stolen;
    }
    f_finalize();
}

/* The library's barrier: `count` episodes of a phase with no filaments, or
 * (one_each) with one empty filament per server, as a pass of a program. */
static double time_fil_barrier(const struct options *o, int one_each)
{
    passes_left = o->count;
    check(f_new_barrier(count_down, NULL), "f_new_barrier");
    for (int s = 0; one_each && s < o->servers; ++s)
        check(f_iterative_thread(s, micro_empty, s, 0, NULL), "f_iterative_thread");
    double t0 = now_ns();
    check(f_parallel(), "f_parallel");
    return (now_ns() - t0) / (double)o->count;
}

struct spin_barrier {
    _Alignas(64) volatile AO_t count;
    _Alignas(64) volatile AO_t sense;
    AO_t n;
};

/* Sense reversal, as in doc/style.md, "Atomics"; yields now and then so that more threads
 * than cores still make progress. */
static void spin_wait(struct spin_barrier *b, AO_t *my_sense, int serial)
{
    AO_t sense = *my_sense ^= 1;
    /* Full: our writes to the last arriver; if last, everyone's to us. */
    if (AO_fetch_and_add1_full(&b->count) == b->n - 1) {
        if (serial)
            count_down(NULL);  /* the library's barrier code, on the last arriver too */
        AO_store(&b->count, 0);
        /* Release: the reset before the waiters leave; pairs with the loop. */
        AO_store_release(&b->sense, sense);
        return;
    }
    for (unsigned k = 1; AO_load_acquire(&b->sense) != sense; ++k) {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
        if (k % 4096 == 0)
            sched_yield();
    }
}

enum peer_kind {
    PTHREAD_BARRIER,
    SPIN,         /* the spin barrier */
    SPIN_SERIAL   /* the same, its last arriver running count_down, as the library's does */
};

struct peer_run {
    enum peer_kind kind;
    long count;
    pthread_barrier_t pb;
    struct spin_barrier sb;
    double ns;  /* per episode, written by thread 0 */
};

struct peer_arg {
    struct peer_run *run;
    int index;
};

static void peer_wait(struct peer_run *p, AO_t *sense)
{
    if (p->kind == PTHREAD_BARRIER)
        pthread_barrier_wait(&p->pb);
    else
        spin_wait(&p->sb, sense, p->kind == SPIN_SERIAL);
}

static void *peer_main(void *arg)
{
    struct peer_arg *a = arg;
    struct peer_run *p = a->run;
    AO_t sense = 0;
    peer_wait(p, &sense);  /* every thread has started */
    double t0 = now_ns();
    for (long k = 0; k < p->count; ++k)
        peer_wait(p, &sense);
    if (a->index == 0)
        p->ns = (now_ns() - t0) / (double)p->count;
    return NULL;
}

/* `count` episodes of a pthread or spin barrier among S new threads. */
static double time_peer_barrier(const struct options *o, enum peer_kind kind)
{
    struct peer_run p = { .kind = kind, .count = o->count };
    passes_left = o->count;
    AO_store(&p.sb.count, 0);
    AO_store(&p.sb.sense, 0);
    p.sb.n = (AO_t)o->servers;
    if (pthread_barrier_init(&p.pb, NULL, (unsigned)o->servers) != 0) {
        fprintf(stderr, "%s: pthread_barrier_init failed\n", prog);
        exit(1);
    }
    pthread_t *t = malloc((size_t)o->servers * sizeof *t);
    struct peer_arg *a = malloc((size_t)o->servers * sizeof *a);
    if (t == NULL || a == NULL) {
        fprintf(stderr, "%s: out of memory\n", prog);
        exit(1);
    }
    for (int k = 0; k < o->servers; ++k) {
        a[k] = (struct peer_arg){ &p, k };
        if (pthread_create(&t[k], NULL, peer_main, &a[k]) != 0) {
            fprintf(stderr, "%s: pthread_create failed\n", prog);
            exit(1);
        }
    }
    for (int k = 0; k < o->servers; ++k)
        pthread_join(t[k], NULL);
    pthread_barrier_destroy(&p.pb);
    free(a);
    free(t);
    return p.ns;
}

static void bench_barrier(const struct options *o, int peers)
{
    double *v[5];
    for (int m = 0; m < 5; ++m) {
        v[m] = malloc((size_t)o->rounds * sizeof *v[m]);
        if (v[m] == NULL) {
            fprintf(stderr, "%s: out of memory\n", prog);
            exit(1);
        }
    }
    check(f_initialize(o->servers), "f_initialize");
    for (int r = 0; r < o->rounds; ++r) {
        v[0][r] = time_fil_barrier(o, 0);
        if (peers) {
            v[3][r] = time_fil_barrier(o, 1);
            v[1][r] = time_peer_barrier(o, PTHREAD_BARRIER);
            v[2][r] = time_peer_barrier(o, SPIN);
            v[4][r] = time_peer_barrier(o, SPIN_SERIAL);
        }
    }
    f_finalize();
    printf("what=%s servers=%d count=%ld rounds=%d", o->what, o->servers, o->count, o->rounds);
    print_stat("ns_per", "", v[0], o->rounds);
    if (peers) {
        print_stat("pthread_ns_per", "pthread_", v[1], o->rounds);
        print_stat("spin_ns_per", "spin_", v[2], o->rounds);
        print_stat("pass_ns_per", "pass_", v[3], o->rounds);
        print_stat("spin_serial_ns_per", "spin_serial_", v[4], o->rounds);
    }
    printf("\n");
    for (int m = 0; m < 5; ++m)
        free(v[m]);
}

static void bench_parallel(const struct options *o, double *ns)
{
    check(f_initialize(o->servers), "f_initialize");
    for (int r = 0; r < o->rounds; ++r) {
        double t0 = now_ns();
        for (long k = 0; k < o->count; ++k)
            check(f_parallel(), "f_parallel");
        ns[r] = (now_ns() - t0) / (double)o->count;
    }
    f_finalize();
}

/* Bytes mapped by the process (/proc/self/statm, open as fd): the malloc
 * heap and the library's own mappings alike (large queue chunks come from
 * mmap). */
static double mapped_bytes(int fd)
{
    char buf[64];
    unsigned long pages = 0;
    ssize_t got = pread(fd, buf, sizeof buf - 1, 0);
    if (got > 0) {
        buf[got] = '\0';
        if (sscanf(buf, "%lu", &pages) != 1)
            pages = 0;
    }
    return (double)pages * (double)sysconf(_SC_PAGESIZE);
}

/*
 * Heap growth per filament while `count` filaments wait for f_parallel:
 * *all is the growth over all of them; *full the growth per filament at
 * the last moment every queue chunk (or run array) was full, the mapped
 * size read every PROBE filaments, so that the unused end of the last
 * chunk, which depends on the count, is left out (0 if nothing grew).
 */
#define PROBE 16
static void bytes_per(const struct options *o, int iterative, int in_run, double *all,
                      double *full)
{
    int fd = open("/proc/self/statm", O_RDONLY);
    check(f_initialize(o->servers), "f_initialize");
    if (iterative) {
        passes_left = 1;
        check(f_new_barrier(count_down, NULL), "f_new_barrier");
    }
    double before = mapped_bytes(fd), last = before;
    *full = 0.0;
    for (long k = 0; k < o->count; ++k) {
        if (k % PROBE == 0) {
            double now = mapped_bytes(fd);
            if (now > last && k > 0)
                *full = (last - before) / (double)(k - PROBE);
            last = now;
        }
        long i = in_run ? 0 : k;
        check(iterative ? f_iterative_thread(0, micro_empty, i, k, NULL)
                        : f_rtc_thread(0, micro_empty, i, k, NULL),
              "create");
    }
    *all = (mapped_bytes(fd) - before) / (double)o->count;
    check(f_parallel(), "f_parallel");
    f_finalize();
    close(fd);
}

static int bench_bytes(const struct options *o)
{
    double rtc, rtc_full, alone, alone_full, run, run_full;
    bytes_per(o, 0, 0, &rtc, &rtc_full);
    bytes_per(o, 1, 0, &alone, &alone_full);
    bytes_per(o, 1, 1, &run, &run_full);
    printf("what=bytes servers=%d count=%ld rtc=%.2f iter_alone=%.2f iter_run=%.2f "
           "rtc_full=%.2f iter_alone_full=%.2f\n",
           o->servers, o->count, rtc, alone, run, rtc_full, alone_full);
    return 0;
}

/* ---------------------------------------------------------------- main */

enum bench { PROC, RTC, RTC_CREATE, RTC_ROWS, CREATE_PER_SERVER, ITER, ITER_RUNS, ITER_RANGE,
             BARRIER, BARRIER_FIL, PARALLEL, FORK_JOIN, FORK_JOIN_STOLEN, FORK_SYNC,
             FORK_SYNC_NOARGS, FIB_UNCHECKED, FIB_CHECKED, BYTES, LIST,
             NBENCH };

static const struct {
    const char *name;
    const char *help;
} benches[NBENCH] = {
    [PROC] = { "proc", "an empty procedure call (the baseline)" },
    [RTC] = { "rtc", "an empty RTC filament, created on server 0 (rows of --row, every other j) and run" },
    [RTC_CREATE] = { "rtc-create", "its creation alone" },
    [RTC_ROWS] = { "rtc-rows", "the same in rows of --row consecutive j, which the library packs" },
    [CREATE_PER_SERVER] = { "create-per-server",
                            "RTC creation by each server for itself (f_create_per_server), and by "
                            "the main thread (main_ns_per), into fresh queues" },
    [ITER] = { "iter", "an empty iterative filament per pass, a run of its own" },
    [ITER_RUNS] = { "iter-runs", "the same, in rows of --row consecutive j (runs)" },
    [ITER_RANGE] = { "iter-range", "the same rows, run by a range version" },
    [BARRIER] = { "barrier", "a barrier episode: filaments, pthread_barrier_wait, spin, spin with barrier code" },
    [BARRIER_FIL] = { "barrier-fil", "the filaments' barrier alone" },
    [PARALLEL] = { "parallel", "an empty f_parallel call (microseconds)" },
    [FORK_JOIN] = { "fork-join", "fork + join of an empty child, not stolen (one server)" },
    [FORK_JOIN_STOLEN] = { "fork-join-stolen",
                           "fork + join of a child another server steals, and a sibling" },
    [FORK_SYNC] = { "fork-sync", "typed fork + sync of an empty child, not stolen (one server)" },
    [FORK_SYNC_NOARGS] = { "fork-sync-noargs",
                           "the same, j = 0 and arg = NULL, as Fibonacci forks" },
    [FIB_UNCHECKED] = { "fib-unchecked", "typed fork + sync in fib(15), the fork's result unchecked" },
    [FIB_CHECKED] = { "fib-checked", "the same, checked, calling the child where the fork failed" },
    [BYTES] = { "bytes", "heap bytes per queued RTC and iterative filament" },
    [LIST] = { "list", "print these names" },
};

static void usage(FILE *f)
{
    fprintf(f,
            "usage: %s --what=NAME [--count=N] [--servers=S] [--passes=K] [--row=R] "
            "[--rounds=R]\n",
            prog);
    for (int b = 0; b < NBENCH; ++b)
        fprintf(f, "  %-12s %s\n", benches[b].name, benches[b].help);
}

static long parse_long(const char *opt, const char *s, long min, long max)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0' || v < min || v > max) {
        fprintf(stderr, "%s: --%s=%s: expected an integer from %ld to %ld\n", prog, opt, s, min,
                max);
        exit(2);
    }
    return v;
}

static void parse(int argc, char **argv, struct options *o, int *bench)
{
    static const struct option longopts[] = {
        { "what", required_argument, NULL, 'w' },   { "count", required_argument, NULL, 'n' },
        { "servers", required_argument, NULL, 's' }, { "passes", required_argument, NULL, 'p' },
        { "row", required_argument, NULL, 'r' },     { "rounds", required_argument, NULL, 'R' },
        { "help", no_argument, NULL, 'h' },          { NULL, 0, NULL, 0 }
    };
    opterr = 0;
    for (int c; (c = getopt_long(argc, argv, "", longopts, NULL)) != -1;) {
        switch (c) {
        case 'w': o->what = optarg; break;
        case 'n': o->count = parse_long("count", optarg, 1, LONG_MAX / 4); break;
        case 's': o->servers = (int)parse_long("servers", optarg, 1, 1024); break;
        case 'p': o->passes = parse_long("passes", optarg, 1, LONG_MAX / 4); break;
        case 'r': o->row = parse_long("row", optarg, 1, LONG_MAX / 4); break;
        case 'R': o->rounds = (int)parse_long("rounds", optarg, 1, 1000); break;
        case 'h': usage(stdout); exit(0);
        default:
            fprintf(stderr, "%s: bad option '%s' (see --help)\n", prog, argv[optind - 1]);
            exit(2);
        }
    }
    if (optind < argc) {
        fprintf(stderr, "%s: unexpected argument '%s' (see --help)\n", prog, argv[optind]);
        exit(2);
    }
    if (o->what == NULL) {
        fprintf(stderr, "%s: --what=NAME is required (see --help)\n", prog);
        exit(2);
    }
    for (*bench = 0; *bench < NBENCH; ++*bench)
        if (strcmp(o->what, benches[*bench].name) == 0)
            return;
    fprintf(stderr, "%s: unknown --what=%s (--what=list shows the names)\n", prog, o->what);
    exit(2);
}

int main(int argc, char **argv)
{
    struct options o = { NULL, 1000000, 1, 10, 1000, 3 };
    int b;
    parse(argc, argv, &o, &b);
    switch (b) {
    case LIST:
        for (int k = 0; k < NBENCH; ++k)
            printf("%s\n", benches[k].name);
        return 0;
    case BYTES: return bench_bytes(&o);
    case BARRIER:
    case BARRIER_FIL: bench_barrier(&o, b == BARRIER); return 0;
    default: break;
    }

    double *ns = malloc((size_t)o.rounds * sizeof *ns);
    if (ns == NULL) {
        fprintf(stderr, "%s: out of memory\n", prog);
        return 1;
    }
    double *main_ns = malloc((size_t)o.rounds * sizeof *main_ns);
    if (main_ns == NULL) {
        fprintf(stderr, "%s: out of memory\n", prog);
        return 1;
    }
    const char *key = "ns_per";
    long stolen = -1;
    switch (b) {
    case PROC: bench_proc(&o, ns); break;
    case RTC:
    case RTC_CREATE: bench_rtc(&o, ns, b == RTC_CREATE, 2); break;
    case RTC_ROWS: bench_rtc(&o, ns, 0, 1); break;
    case CREATE_PER_SERVER: bench_create_per_server(&o, ns, main_ns); break;
    case ITER: bench_iter(&o, ns, ALONE); break;
    case ITER_RUNS: bench_iter(&o, ns, RUNS); break;
    case ITER_RANGE: bench_iter(&o, ns, RANGE); break;
    case FORK_JOIN: bench_fork_join(&o, ns, 0, 0, &stolen); break;
    case FORK_SYNC: bench_fork_join(&o, ns, 0, 1, &stolen); break;
    case FORK_SYNC_NOARGS: bench_fork_join(&o, ns, 0, TYPED_NOARGS, &stolen); break;
    case FIB_UNCHECKED: bench_fib(&o, ns, 0); break;
    case FIB_CHECKED: bench_fib(&o, ns, 1); break;
    case FORK_JOIN_STOLEN:
        if (o.servers < 2)
            o.servers = 2;  /* a thief */
        bench_fork_join(&o, ns, 1, 0, &stolen);
        break;
    case PARALLEL:
        bench_parallel(&o, ns);
        for (int r = 0; r < o.rounds; ++r)
            ns[r] /= 1000;
        key = "us_per";
        break;
    }
    printf("what=%s servers=%d count=%ld", o.what, o.servers, o.count);
    if (b == ITER || b == ITER_RUNS || b == ITER_RANGE)
        printf(" passes=%ld", o.passes);
    if (b == ITER_RUNS || b == ITER_RANGE || b == RTC_ROWS || b == CREATE_PER_SERVER)
        printf(" row=%ld", o.row);
    printf(" rounds=%d", o.rounds);
    if (b == CREATE_PER_SERVER) {
        /* The ratio of each round's times (the rounds are paired). */
        double *ratio = malloc((size_t)o.rounds * sizeof *ratio);
        if (ratio == NULL) {
            fprintf(stderr, "%s: out of memory\n", prog);
            return 1;
        }
        for (int r = 0; r < o.rounds; ++r)
            ratio[r] = ns[r] / main_ns[r];
        print_stat(key, "", ns, o.rounds);
        print_stat("main_ns_per", "main_", main_ns, o.rounds);
        print_stat("ratio", "ratio_", ratio, o.rounds);
        free(ratio);
    } else {
        print_stat(key, "", ns, o.rounds);
    }
    if (b == FORK_JOIN_STOLEN)
        printf(" stolen=%ld of=%ld", stolen, o.count * o.rounds);
    printf("\n");
    free(main_ns);
    free(ns);
    return 0;
}
