/*
 * epcc.c - the overheads of a parallel loop, a barrier and a reduction,
 * measured as the EPCC OpenMP microbenchmarks' syncbench measures them
 * (Bull, "Measuring Synchronisation and Scheduling Overheads in OpenMP",
 * EWOMP 1999; Bull, Reid and McDonnell, IWOMP 2012): each test repeats
 * `reps` times a construct around delay(), the same work done serially
 * (the reference) is timed the same way, and the overhead is the
 * difference per repetition, in microseconds; the median of `outer` such
 * measurements is printed, with their least and greatest.
 *
 * One source, three programs: bench/epcc against the library
 * (f_parallel_for, the barrier between passes of an iterative phase,
 * f_parallel_reduce), and, where configure found them, bench/epcc-omp
 * built with gcc -fopenmp (libgomp) and bench/epcc-llvm with clang
 * -fopenmp=libomp, whose tests are syncbench's own (`parallel for`,
 * `barrier`, `parallel reduction`).  scripts/micro-overheads runs them in
 * turn, round after round.
 *
 *   epcc [--threads=S] [--reps=N] [--outer=R] [--delay-ns=D] [--test=T]
 *   bench=epcc impl=fil threads=2 test=parallel_for delay_ns=0 reps=.. outer=..
 *       overhead_us=.. min=.. max=..
 *
 * T: parallel_for, barrier, reduction or all (the default).  D: the work
 * in each thread's share (syncbench's delay; its default is 0.1 us; 0: an
 * empty body, the figure that issue 57 compares).
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef _OPENMP
#include <omp.h>
#ifdef __clang__
#define IMPL "omp-llvm"
#else
#define IMPL "omp"
#endif
#else
#include <filaments.h>
#define IMPL "fil"
#endif

static const char *prog = "epcc";
static long delay_iters; /* delay()'s loop, calibrated to --delay-ns */
static int threads = 2;
static long reps = 10000;

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

/* syncbench's delay: a dependent chain the compiler cannot remove. */
static void delay(long iters)
{
    volatile double a = 0.0;
    for (long i = 0; i < iters; ++i)
        a += (double)i;
    if (a < 0)
        printf("%f\n", a);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
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

/* Iterations of delay() that take about ns nanoseconds. */
static long calibrate(long ns)
{
    if (ns == 0)
        return 0;
    long n = 1000000;
    double t0 = now_us();
    delay(n);
    double us = now_us() - t0;
    long iters = (long)((double)n * ((double)ns / 1000.0) / us);
    return iters > 0 ? iters : 1;
}

/* The reference: the work of one thread's share, reps times, serially. */
static double reference(void)
{
    double t0 = now_us();
    for (long k = 0; k < reps; ++k)
        delay(delay_iters);
    return now_us() - t0;
}

#ifdef _OPENMP
static double test_parallel_for(void)
{
    double t0 = now_us();
    for (long k = 0; k < reps; ++k) {
#pragma omp parallel for num_threads(threads)
        for (int i = 0; i < threads; ++i)
            delay(delay_iters);
    }
    return now_us() - t0;
}

static double test_barrier(void)
{
    double t0 = now_us();
#pragma omp parallel num_threads(threads)
    for (long k = 0; k < reps; ++k) {
        delay(delay_iters);
#pragma omp barrier
    }
    return now_us() - t0;
}

static double test_reduction(void)
{
    long total = 0;
    double t0 = now_us();
    for (long k = 0; k < reps; ++k) {
#pragma omp parallel reduction(+ : total) num_threads(threads)
        {
            delay(delay_iters);
            total += 1;
        }
    }
    double t = now_us() - t0;
    if (total != reps * threads) {
        fprintf(stderr, "%s: reduction gave %ld, not %ld\n", prog, total, reps * threads);
        exit(1);
    }
    return t;
}

static void start(void) {}
static void stop(void) {}
#else
F_LOOP_0(share, lo, hi)
{
    for (long i = lo; i < hi; ++i)
        delay(delay_iters);
}

static double test_parallel_for(void)
{
    double t0 = now_us();
    for (long k = 0; k < reps; ++k)
        if (F_PARALLEL_FOR(share, 0, threads) < 0)
            exit(1);
    return now_us() - t0;
}

/* The barrier between passes: one iterative filament per server, reps
 * passes (the run's start and end spread over them). */
static void share_filament(long i, long j, void *arg)
{
    (void)i, (void)j, (void)arg;
    delay(delay_iters);
}

static int count_passes(void *arg)
{
    long *passes = arg;
    return ++*passes < reps ? F_NOTDONE : F_DONE;
}

static double test_barrier(void)
{
    long passes = 0;
    if (f_new_barrier(count_passes, &passes) < 0)
        exit(1);
    for (int s = 0; s < threads; ++s)
        if (f_iterative_thread(s, share_filament, 0, 0, NULL) < 0)
            exit(1);
    double t0 = now_us();
    if (f_parallel() < 0)
        exit(1);
    return now_us() - t0;
}

F_LOOP_REDUCE_0(count, lo, hi, long, acc)
{
    for (long i = lo; i < hi; ++i) {
        delay(delay_iters);
        *acc += 1;
    }
}

static double test_reduction(void)
{
    long total = 0;
    double t0 = now_us();
    for (long k = 0; k < reps; ++k)
        if (F_PARALLEL_REDUCE(count, 0, threads, F_SUM, &total) < 0)
            exit(1);
    double t = now_us() - t0;
    if (total != reps * threads) {
        fprintf(stderr, "%s: reduction gave %ld, not %ld\n", prog, total, reps * threads);
        exit(1);
    }
    return t;
}

static void start(void)
{
    if (f_initialize(threads) < 0) {
        fprintf(stderr, "%s: f_initialize(%d) failed\n", prog, threads);
        exit(1);
    }
}

static void stop(void)
{
    f_finalize();
}
#endif

static const struct test {
    const char *name;
    double (*run)(void);
} tests[] = {
    { "parallel_for", test_parallel_for },
    { "barrier", test_barrier },
    { "reduction", test_reduction },
};

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        { "threads", required_argument, NULL, 's' }, { "reps", required_argument, NULL, 'n' },
        { "outer", required_argument, NULL, 'r' },   { "delay-ns", required_argument, NULL, 'd' },
        { "test", required_argument, NULL, 't' },    { NULL, 0, NULL, 0 }
    };
    long outer = 11, delay_ns = 0;
    const char *which = "all";
    int c;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 's': threads = (int)parse_long("threads", optarg, 1, 1024); break;
        case 'n': reps = parse_long("reps", optarg, 1, 1000000000); break;
        case 'r': outer = parse_long("outer", optarg, 1, 1000); break;
        case 'd': delay_ns = parse_long("delay-ns", optarg, 0, 1000000); break;
        case 't': which = optarg; break;
        default: return 2;
        }
    }
    delay_iters = calibrate(delay_ns);
    start();
    int matched = 0;
    for (size_t k = 0; k < sizeof tests / sizeof *tests; ++k) {
        if (strcmp(which, "all") != 0 && strcmp(which, tests[k].name) != 0)
            continue;
        matched = 1;
        tests[k].run(); /* warm: threads started, caches and branch predictors */
        double *us = malloc((size_t)outer * sizeof *us);
        if (us == NULL)
            return 1;
        for (long r = 0; r < outer; ++r)
            us[r] = (tests[k].run() - reference()) / (double)reps;
        qsort(us, (size_t)outer, sizeof *us, cmp_double);
        printf("bench=epcc impl=%s threads=%d test=%s delay_ns=%ld reps=%ld outer=%ld "
               "overhead_us=%.3f min=%.3f max=%.3f\n",
               IMPL, threads, tests[k].name, delay_ns, reps, outer, us[outer / 2], us[0],
               us[outer - 1]);
        free(us);
    }
    stop();
    if (!matched) {
        fprintf(stderr, "%s: --test=%s: expected parallel_for, barrier, reduction or all\n", prog,
                which);
        return 2;
    }
    return 0;
}
