/*
 * floor.c - the floor suite: the library's fast paths in programs shaped as
 * its users write them from the man pages, for an instruction count that
 * must not rise (scripts/floor, doc/benchmarks.md "The floor").
 *
 *   floor --shape=NAME [--reps=N] [--servers=S]
 *
 * Each shape runs one fixed instance N times and prints one line,
 *   shape=fib-sync reps=4 per=10945 check=ok
 * where per is what one instance does of the unit the shape counts (forks,
 * filaments, passes, points).  scripts/floor runs two --reps under
 * valgrind --tool=callgrind and divides the difference of their totals by
 * the difference of their units, which cancels start-up and the library's
 * set-up.  Every instance's result is checked; a wrong one prints one line
 * and exits 1.  `floor --shape=list` prints the names.  Bad options: one
 * line, exit 2.
 *
 * The shapes are what the fast paths meet in users' code: a typed fork in
 * Fibonacci (fib-sync, and fib-sync-checked, whose fork's result is
 * checked with a fallback call), the same recursion as a plain call
 * (fib-call: the floor under a fork), untyped forks and joins through the
 * parent's frame (fib-join), a typed fork in a function that returns
 * early before it forks (knapsack, with f_fork_long, and knapsack-task,
 * Lace's four arguments as F_TASK_4: gcc splits such a function's early
 * returns off into its callers only where the inline fork and sync are
 * small, and where it has more than one caller or its address is taken), a
 * loop of forks with one join (fork-loop), a recursion on doubles (pi),
 * run-to-completion filaments created and run (rtc), a pass of one
 * iterative filament with barrier code (pass), a row of points run by a
 * range version (range), and a parallel loop call, plain and with a sum
 * (loop, loop-reduce).  One server and pruning off, unless --servers
 * says otherwise: the counts are then the program's and the library's
 * code alone, repeatable on a busy machine.
 */
#define _POSIX_C_SOURCE 200809L

#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filaments.h"
#include "floor.h"

static const char *prog = "floor";

static void check(int rc, const char *what)
{
    if (rc < 0) {
        fprintf(stderr, "%s: %s: %s\n", prog, what, f_strerror(rc));
        exit(1);
    }
}

static void wrong(const char *shape, long got, long want)
{
    fprintf(stderr, "%s: %s gave %ld, not %ld\n", prog, shape, got, want);
    exit(1);
}

/* Forks the library counted so far, on every server (f_get_stats(3)). */
static unsigned long forks(void)
{
    unsigned long n = 0;
    for (int s = 0; s < f_num_servers(); ++s) {
        struct f_stats st;
        check(f_get_stats(s, &st), "f_get_stats");
        n += st.forks;
    }
    return n;
}

/* ------------------------------------------------------------ Fibonacci */

#define FIB_N 20
#define FIB_VALUE 6765L
#define FIB_CALLS 10945L /* fib(FIB_N + 1) - 1: the calls that recurse, a fork each */

static long fib_call(long n)
{
    if (n < 2)
        return n;
    return fib_call(n - 1) + fib_call(n - 2);
}

static long fib_sync(f_frame fr, long n, long j, void *arg)
{
    (void)j, (void)arg;
    if (n < 2)
        return n;
    f_fork_long(&fr, fib_sync, n - 1, 0, NULL);
    long b = fib_sync(fr, n - 2, 0, NULL);
    return f_sync_long(&fr, fib_sync) + b;
}

static long fib_sync_checked(f_frame fr, long n, long j, void *arg)
{
    (void)j, (void)arg;
    if (n < 2)
        return n;
    if (f_fork_long(&fr, fib_sync_checked, n - 1, 0, NULL) != F_OK)
        return fib_sync_checked(fr, n - 1, 0, NULL) + fib_sync_checked(fr, n - 2, 0, NULL);
    long b = fib_sync_checked(fr, n - 2, 0, NULL);
    return f_sync_long(&fr, fib_sync_checked) + b;
}

/* Untyped: the child's result through the parent's frame. */
static void fib_join(long n, long j, void *arg)
{
    (void)j;
    long *result = arg;
    if (n < 2) {
        *result = n;
        return;
    }
    long a, b;
    if (f_fork(fib_join, n - 1, 0, &a) != F_OK)
        fib_join(n - 1, 0, &a);
    fib_join(n - 2, 0, &b);
    check(f_join(), "f_join");
    *result = a + b;
}

/* ------------------------------------------------------------- knapsack */

/* The 0-1 knapsack of Lace's examples, as a user ports it: the best value
 * of the n items at e in capacity c, with Lace's bound (the best so far
 * plus what is left at this item's ratio), the fork checked and a plain
 * call where it failed; the items by decreasing value per weight. */

#define KNAP_ITEMS 16
#define KNAP_CAPACITY 400
static struct item knap_items[KNAP_ITEMS];
static long knap_best;
/* The best value, found once by knap_plain before any instance runs, so
 * that the instances' counts hold the forked search alone.  Lace's bound
 * never prunes (the best so far plus what is left is never below the best
 * so far), so the searches with and without it find the same value. */
static long knap_want;

static long knapsack(f_frame fr, long c, long n, void *arg)
{
    struct item *e = arg;
    if (c < 0)
        return INT_MIN;
    if (n == 0 || c == 0)
        return 0;
    double ub = (double)knap_best + (double)c * e->value / e->weight;
    if (ub < (double)knap_best)
        return INT_MIN;
    long with, without;
    if (f_fork_long(&fr, knapsack, c, n - 1, e + 1) != F_OK) {
        with = knapsack(fr, c - e->weight, n - 1, e + 1) + e->value;
        without = knapsack(fr, c, n - 1, e + 1);
    } else {
        with = knapsack(fr, c - e->weight, n - 1, e + 1) + e->value;
        without = f_sync_long(&fr, knapsack);
    }
    long best = with > without ? with : without;
    if (best > knap_best)
        knap_best = best;
    return best;
}

/* The same search with no forks: the value to check against. */
static long knap_plain(long c, long n, const struct item *e)
{
    if (c < 0)
        return INT_MIN;
    if (n == 0 || c == 0)
        return 0;
    double ub = (double)knap_best + (double)c * e->value / e->weight;
    if (ub < (double)knap_best)
        return INT_MIN;
    long with = knap_plain(c - e->weight, n - 1, e + 1) + e->value;
    long without = knap_plain(c, n - 1, e + 1);
    long best = with > without ? with : without;
    if (best > knap_best)
        knap_best = best;
    return best;
}

static int by_ratio(const void *a, const void *b)
{
    const struct item *x = a, *y = b;
    long l = (long)y->value * x->weight, r = (long)x->value * y->weight;
    return (l > r) - (l < r);
}

/* Pseudo-random items, the same on every machine, by decreasing ratio. */
static void knap_setup(void)
{
    unsigned long seed = 12345;
    for (int k = 0; k < KNAP_ITEMS; ++k) {
        seed = (seed * 1103515245UL + 12345UL) % 2147483648UL;
        knap_items[k].value = (int)(seed % 90) + 10;
        seed = (seed * 1103515245UL + 12345UL) % 2147483648UL;
        knap_items[k].weight = (int)(seed % 90) + 10;
    }
    qsort(knap_items, KNAP_ITEMS, sizeof knap_items[0], by_ratio);
    knap_best = 0;
    knap_want = knap_plain(KNAP_CAPACITY, KNAP_ITEMS, knap_items);
}

/* --------------------------------------------------------------- others */

#define LOOP_CHILDREN 1000

static void add_one(long i, long j, void *arg)
{
    (void)j;
    ((long *)arg)[i] += 1;
}

/* A root that forks LOOP_CHILDREN children in a loop, then joins once. */
static void fork_loop(long i, long j, void *arg)
{
    (void)i, (void)j;
    for (long k = 0; k < LOOP_CHILDREN; ++k)
        if (f_fork(add_one, k, 0, arg) != F_OK)
            add_one(k, 0, arg);
    check(f_join(), "f_join");
}

/* pi as the integral of 4 / (1 + x^2) over [0, 1), in PI_LEAVES strips,
 * divided in halves down to one strip (Lace's pi). */
#define PI_LEAVES 4096L

static double pi_strips(f_frame fr, long from, long to, void *arg)
{
    (void)arg;
    if (to - from == 1) {
        double x = ((double)from + 0.5) / PI_LEAVES;
        return 4.0 / (1.0 + x * x) / PI_LEAVES;
    }
    long mid = from + (to - from) / 2;
    f_fork_double(&fr, pi_strips, from, mid, NULL);
    double right = pi_strips(fr, mid, to, NULL);
    return f_sync_double(&fr, pi_strips) + right;
}

/* The same sum with no forks, found once (main), so that the instances'
 * counts hold the forked sum alone. */
static double pi_want;

static double pi_plain(long from, long to)
{
    if (to - from == 1) {
        double x = ((double)from + 0.5) / PI_LEAVES;
        return 4.0 / (1.0 + x * x) / PI_LEAVES;
    }
    long mid = from + (to - from) / 2;
    double right = pi_plain(mid, to);
    return pi_plain(from, mid) + right;
}

#define RTC_FILAMENTS 1000
#define PASSES 1000
#define ROW_POINTS 1000
#define ROW_PASSES 10

static long passes_left;

static int count_down(void *arg)
{
    (void)arg;
    return --passes_left > 0 ? F_NOTDONE : F_DONE;
}

static inline void add_point(long i, long j, void *arg)
{
    ((long *)arg)[i * ROW_POINTS + j] += 1;
}
F_RANGE_VERSION(add_point)

/* A parallel loop as OpenMP users write it (f_parallel_for(3)): a call
 * from the main thread over LOOP_POINTS points, LOOP_CALLS times, and the
 * same loop with a sum. */
#define LOOP_POINTS 100
#define LOOP_CALLS 1000

F_LOOP_1(add_ones, lo, hi, long *, v)
{
    for (long k = lo; k < hi; ++k)
        v[k] += 1;
}

F_LOOP_REDUCE_1(sum_of, lo, hi, long, acc, const long *, v)
{
    long s = *acc;
    for (long k = lo; k < hi; ++k)
        s += v[k];
    *acc = s;
}

/* ------------------------------------------------------------ the shapes */

/* One instance of each shape; each returns its units (per). */
static long run_fib_call(void)
{
    volatile long n = FIB_N; /* so that the compiler computes it each time */
    long v = fib_call(n);
    if (v != FIB_VALUE)
        wrong("fib-call", v, FIB_VALUE);
    return FIB_CALLS;
}

static long run_typed(f_long_func fn, long i, long j, void *arg, long want, const char *shape)
{
    unsigned long before = forks();
    long v;
    check(f_run_long(fn, i, j, arg, &v), "f_run_long");
    if (v != want)
        wrong(shape, v, want);
    return (long)(forks() - before);
}

static long run_fib_sync(void)
{
    return run_typed(fib_sync, FIB_N, 0, NULL, FIB_VALUE, "fib-sync");
}

static long run_fib_sync_checked(void)
{
    return run_typed(fib_sync_checked, FIB_N, 0, NULL, FIB_VALUE, "fib-sync-checked");
}

static long run_fib_join(void)
{
    long v = -1;
    unsigned long before = forks();
    check(f_fork(fib_join, FIB_N, 0, &v), "f_fork");
    check(f_parallel(), "f_parallel");
    if (v != FIB_VALUE)
        wrong("fib-join", v, FIB_VALUE);
    return (long)(forks() - before);
}

static long run_knapsack(void)
{
    knap_best = 0;
    return run_typed(knapsack, KNAP_CAPACITY, KNAP_ITEMS, knap_items, knap_want, "knapsack");
}

static long run_knapsack_task(void)
{
    unsigned long before = forks();
    long v;
    check(floor_knapsack_task(knap_items, KNAP_CAPACITY, KNAP_ITEMS, &v), "F_RUN");
    if (v != knap_want)
        wrong("knapsack-task", v, knap_want);
    return (long)(forks() - before);
}

static long run_fork_loop(void)
{
    static long hits[LOOP_CHILDREN];
    memset(hits, 0, sizeof hits);
    check(f_fork(fork_loop, 0, 0, hits), "f_fork");
    check(f_parallel(), "f_parallel");
    for (long k = 0; k < LOOP_CHILDREN; ++k)
        if (hits[k] != 1)
            wrong("fork-loop", hits[k], 1);
    return LOOP_CHILDREN;
}

static long run_pi(void)
{
    double v;
    unsigned long before = forks();
    check(f_run_double(pi_strips, 0, PI_LEAVES, NULL, &v), "f_run_double");
    if (v != pi_want)
        wrong("pi", (long)(v * 1e9), (long)(pi_want * 1e9));
    return (long)(forks() - before);
}

static long run_rtc(void)
{
    static long hits[RTC_FILAMENTS];
    memset(hits, 0, sizeof hits);
    for (long k = 0; k < RTC_FILAMENTS; ++k)
        check(f_rtc_thread(0, add_one, k, 0, hits), "f_rtc_thread");
    check(f_parallel(), "f_parallel");
    for (long k = 0; k < RTC_FILAMENTS; ++k)
        if (hits[k] != 1)
            wrong("rtc", hits[k], 1);
    return RTC_FILAMENTS;
}

static long run_pass(void)
{
    static long hits[1];
    hits[0] = 0;
    passes_left = PASSES;
    check(f_new_barrier(count_down, NULL), "f_new_barrier");
    check(f_iterative_thread(0, add_one, 0, 0, hits), "f_iterative_thread");
    check(f_parallel(), "f_parallel");
    if (hits[0] != PASSES)
        wrong("pass", hits[0], PASSES);
    return PASSES;
}

static long run_range(void)
{
    static long points[ROW_POINTS];
    memset(points, 0, sizeof points);
    passes_left = ROW_PASSES;
    check(f_new_barrier(count_down, NULL), "f_new_barrier");
    check(f_set_range_version(add_point, add_point_range), "f_set_range_version");
    check(f_iterative_row(0, add_point, 0, 0, ROW_POINTS, points), "f_iterative_row");
    check(f_parallel(), "f_parallel");
    for (long k = 0; k < ROW_POINTS; ++k)
        if (points[k] != ROW_PASSES)
            wrong("range", points[k], ROW_PASSES);
    return ROW_POINTS * ROW_PASSES;
}

static long run_loop(void)
{
    static long v[LOOP_POINTS];
    memset(v, 0, sizeof v);
    for (long c = 0; c < LOOP_CALLS; ++c)
        check(F_PARALLEL_FOR(add_ones, 0, LOOP_POINTS, v), "F_PARALLEL_FOR");
    for (long k = 0; k < LOOP_POINTS; ++k)
        if (v[k] != LOOP_CALLS)
            wrong("loop", v[k], LOOP_CALLS);
    return LOOP_CALLS;
}

static long run_loop_reduce(void)
{
    static long v[LOOP_POINTS];
    for (long k = 0; k < LOOP_POINTS; ++k)
        v[k] = k;
    for (long c = 0; c < LOOP_CALLS; ++c) {
        long total = 0;
        check(F_PARALLEL_REDUCE(sum_of, 0, LOOP_POINTS, F_SUM, &total, v), "F_PARALLEL_REDUCE");
        if (total != LOOP_POINTS * (LOOP_POINTS - 1) / 2)
            wrong("loop-reduce", total, LOOP_POINTS * (LOOP_POINTS - 1) / 2);
    }
    return LOOP_CALLS;
}

static const struct shape {
    const char *name;
    long (*run)(void);
    const char *what;
} shapes[] = {
    { "fib-call", run_fib_call, "fib(20) as plain calls, no library: the floor under a fork" },
    { "fib-sync", run_fib_sync, "typed fork + sync in fib(20), unchecked" },
    { "fib-sync-checked", run_fib_sync_checked, "the same, checked, with a fallback call" },
    { "fib-join", run_fib_join, "untyped fork + join in fib(20), results through the frame" },
    { "knapsack", run_knapsack, "typed fork, checked, in a function with early returns" },
    { "knapsack-task", run_knapsack_task, "the same as F_TASK_4, with four arguments, as Lace's" },
    { "fork-loop", run_fork_loop, "a loop of 1000 forks, one join" },
    { "pi", run_pi, "typed forks on doubles: pi in 4096 strips, halved recursively" },
    { "rtc", run_rtc, "1000 RTC filaments created on server 0 and run" },
    { "pass", run_pass, "a pass of one iterative filament, barrier code counting 1000" },
    { "range", run_range, "a point of a 1000-point row run by a range version, 10 passes" },
    { "loop", run_loop, "a parallel loop call over 100 points from the main thread" },
    { "loop-reduce", run_loop_reduce, "the same with a sum (F_PARALLEL_REDUCE)" },
};
#define NSHAPES (sizeof shapes / sizeof shapes[0])

static long parse_long(const char *name, const char *s, long lo, long hi)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v < lo || v > hi) {
        fprintf(stderr, "%s: --%s=%s: expected a whole number from %ld to %ld\n", prog, name, s,
                lo, hi);
        exit(2);
    }
    return v;
}

static void usage(void)
{
    printf("usage: %s --shape=NAME [--reps=N] [--servers=S]\n", prog);
    for (size_t k = 0; k < NSHAPES; ++k)
        printf("  %-17s %s\n", shapes[k].name, shapes[k].what);
}

int main(int argc, char **argv)
{
    const char *name = NULL;
    long reps = 1;
    int servers = 1;
    static const struct option longopts[] = {
        { "shape", required_argument, NULL, 'w' }, { "reps", required_argument, NULL, 'n' },
        { "servers", required_argument, NULL, 's' }, { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 }
    };
    opterr = 0; /* one line of our own instead of getopt's and the usage */
    for (int c; (c = getopt_long(argc, argv, "", longopts, NULL)) != -1;) {
        switch (c) {
        case 'w': name = optarg; break;
        case 'n': reps = parse_long("reps", optarg, 1, 1000000); break;
        case 's': servers = (int)parse_long("servers", optarg, 1, 1024); break;
        case 'h': usage(); return 0;
        default:
            fprintf(stderr, "%s: bad option '%s' (see --help)\n", prog, argv[optind - 1]);
            return 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "%s: unexpected argument '%s' (see --help)\n", prog, argv[optind]);
        return 2;
    }
    if (name == NULL) {
        fprintf(stderr, "%s: --shape=NAME is required (see --help)\n", prog);
        return 2;
    }
    if (strcmp(name, "list") == 0) {
        for (size_t k = 0; k < NSHAPES; ++k)
            printf("%s\n", shapes[k].name);
        return 0;
    }
    const struct shape *shape = NULL;
    for (size_t k = 0; k < NSHAPES; ++k)
        if (strcmp(name, shapes[k].name) == 0)
            shape = &shapes[k];
    if (shape == NULL) {
        fprintf(stderr, "%s: unknown --shape=%s (--shape=list shows the names)\n", prog, name);
        return 2;
    }
    check(f_initialize(servers), "f_initialize");
    f_set_prune(0);
    knap_setup();
    pi_want = pi_plain(0, PI_LEAVES);
    long per = shape->run(); /* warm: the first instance touches the queues' memory */
    for (long r = 0; r < reps; ++r)
        if (shape->run() != per) {
            fprintf(stderr, "%s: %s did a different amount of work in its instances\n", prog,
                    name);
            return 1;
        }
    f_finalize();
    printf("shape=%s reps=%ld per=%ld check=ok\n", name, reps, per);
    return 0;
}
