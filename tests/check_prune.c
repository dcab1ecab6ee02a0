/*
 * check_prune.c - suite "prune": pruning of forks [paper §4.5] and the
 * counters that show it (f_fork(3), "Pruning"; f_get_stats(3)).
 *
 * Whatever the threshold - F_PRUNE_AUTO, 0 (never), N - the results are
 * those of the sequential code; f_fork_seq calls its sequential version
 * exactly for the forks that were pruned, and never with pruning off; the
 * statistics add up (every fork is pushed or pruned, every pushed one runs
 * once); FILAMENTS_PRUNE is parsed strictly; and a fib(20) keeps a number
 * of live forks bounded by a small multiple of its depth; and
 * F_PRUNE_AUTO's depth follows the rule f_fork(3) states; f_pruning says
 * what the next fork will do, and a cut-off on it keeps the results.  One server is
 * deterministic (no thief asks for work), so there the counts are exact.
 * Every test with servers runs at 1, 2, 4 and 8 servers (fj.h).
 */
#include "fj.h"

#include <stdatomic.h>
#include <stdlib.h>

#include "forkjoin.h"    /* fi_prune_next_depth */
#include "tunables.h"    /* FI_PRUNE_DEPTH: the 3 of f_fork(3) */

static const long modes[] = { F_PRUNE_AUTO, 0, 1, 2, 5, 64 };
#define NMODES ((int)(sizeof modes / sizeof *modes))

static long fib_seq(long n)
{
    return n < 2 ? n : fib_seq(n - 1) + fib_seq(n - 2);
}

static void fib(long n, long unused, void *result)
{
    long a, b;
    if (n < 2) {
        *(long *)result = n;
        return;
    }
    FJ_REQUIRE(f_fork(fib, n - 1, 0, &a) == F_OK);
    FJ_REQUIRE(f_fork(fib, n - 2, 0, &b) == F_OK);
    FJ_REQUIRE(f_join() == F_OK);
    *(long *)result = a + b;
}

static long fib_long(f_frame fr, long n, long unused, void *unused2)
{
    if (n < 2)
        return n;
    FJ_REQUIRE(f_fork_long(&fr, fib_long, n - 1, 0, NULL) == F_OK);
    long b = fib_long(fr, n - 2, 0, NULL);
    return f_sync_long(&fr, fib_long) + b;
}

static double sum_double(f_frame fr, long lo, long hi, void *unused)
{
    if (hi - lo == 1)
        return 1.0 / (double)(lo + 1);
    long mid = lo + (hi - lo) / 2;
    FJ_REQUIRE(f_fork_double(&fr, sum_double, lo, mid, NULL) == F_OK);
    FJ_REQUIRE(f_fork_double(&fr, sum_double, mid, hi, NULL) == F_OK);
    double b = f_sync_double(&fr, sum_double);
    double a = f_sync_double(&fr, sum_double);
    return a + b;
}

static double sum_double_seq(long lo, long hi)
{
    if (hi - lo == 1)
        return 1.0 / (double)(lo + 1);
    long mid = lo + (hi - lo) / 2;
    double a = sum_double_seq(lo, mid);
    return a + sum_double_seq(mid, hi);
}

static struct {
    long fib, fib_long;
    double sum;
} out;

static void root(long n, long unused, void *unused2)
{
    f_frame fr = f_frame_here();
    fib(n, 0, &out.fib);
    out.fib_long = fib_long(fr, n + 2, 0, NULL);
    out.sum = sum_double(fr, 0, 3000, NULL);
}

/* Every mode, the same results, bitwise. */
START_TEST(test_prune_results_identical)
{
    FJ_START(_i);
    double sum = sum_double_seq(0, 3000);
    for (int m = 0; m < NMODES; ++m) {
        f_set_prune(modes[m]);
        ck_assert_int_eq(f_get_prune(), modes[m]);
        ck_assert_int_eq(f_fork(root, 18, 0, NULL), F_OK);
        ck_assert_int_eq(fj_parallel(), F_OK);
        ck_assert_int_eq(out.fib, fib_seq(18));
        ck_assert_int_eq(out.fib_long, fib_seq(20));
        ck_assert(memcmp(&out.sum, &sum, sizeof sum) == 0);
        memset(&out, 0, sizeof out);
    }
}
END_TEST

/* ------------------------------------------------------------ f_fork_seq */

static atomic_long fn_calls, seq_calls;

static void fib_seqver(long n, long unused, void *result)
{
    atomic_fetch_add(&seq_calls, 1);
    *(long *)result = fib_seq(n);
}

/* fib with f_fork_seq: the sequential version is fib_seqver. */
static void fib_fs(long n, long unused, void *result)
{
    long a, b;
    atomic_fetch_add(&fn_calls, 1);
    if (n < 2) {
        *(long *)result = n;
        return;
    }
    FJ_REQUIRE(f_fork_seq(fib_fs, fib_seqver, n - 1, 0, &a) == F_OK);
    FJ_REQUIRE(f_fork_seq(fib_fs, fib_seqver, n - 2, 0, &b) == F_OK);
    FJ_REQUIRE(f_join() == F_OK);
    *(long *)result = a + b;
}

/* fib(20) as a root forked with f_fork_seq, run by f_parallel. */
static long fib20_fork_seq(void)
{
    long r = -1;
    ck_assert_int_eq(f_fork_seq(fib_fs, fib_seqver, 20, 0, &r), F_OK);
    ck_assert_int_eq(fj_parallel(), F_OK);
    return r;
}

/* fib with f_fork_long_seq: the sequential version is fib_lseqver, a
 * typed function whose forks are plain calls. */
static long fib_lseqver(f_frame fr, long n, long unused, void *unused2)
{
    atomic_fetch_add(&seq_calls, 1);
    return fib_seq(n);
}

static long fib_ls(f_frame fr, long n, long unused, void *unused2)
{
    atomic_fetch_add(&fn_calls, 1);
    if (n < 2)
        return n;
    FJ_REQUIRE(f_fork_long_seq(&fr, fib_ls, fib_lseqver, n - 1, 0, NULL) == F_OK);
    FJ_REQUIRE(f_fork_long_seq(&fr, fib_ls, fib_lseqver, n - 2, 0, NULL) == F_OK);
    long b = f_sync_long(&fr, fib_ls);
    return f_sync_long(&fr, fib_ls) + b;
}

/* fib(20) as a typed root whose forks are f_fork_long_seq. */
static long fib20_fork_long_seq(void)
{
    long r = -1;
    ck_assert_int_eq(f_run_long(fib_ls, 20, 0, NULL, &r), F_OK);
    return r;
}

/*
 * seq runs exactly for the pruned forks, fn for the others, at every
 * threshold: calls of fn = forks - pruned (the root is one of them), calls
 * of seq = pruned, and none with pruning off; alone on one server, below a
 * few levels (more than the threshold) forks are pruned.  A kept value
 * that a thief takes (typed) is no filament run, here or there: no
 * server's count goes below zero (wraps).
 */
static void check_seq_counts(int i, long (*fib20)(void))
{
    FJ_START(i);
    for (int m = 0; m < NMODES; ++m) {
        struct f_stats st;
        f_set_prune(modes[m]);
        ck_assert_int_eq(f_reset_stats(), F_OK);
        atomic_store(&fn_calls, 0);
        atomic_store(&seq_calls, 0);
        ck_assert_int_eq(fib20(), 6765);
        ck_assert_int_eq(f_get_stats(F_ANY, &st), F_OK);
        ck_assert_int_eq(atomic_load(&seq_calls), (long)st.pruned_forks);
        ck_assert_int_eq(atomic_load(&fn_calls), (long)(st.forks - st.pruned_forks));
        for (int s = 0; s < f_num_servers(); ++s) {
            struct f_stats one;
            ck_assert_int_eq(f_get_stats(s, &one), F_OK);
            ck_assert_uint_le(one.filaments_run, st.forks);
        }
        if (modes[m] == 0)
            ck_assert_int_eq(atomic_load(&seq_calls), 0);
        if (modes[m] != 0 && modes[m] < 10 && f_num_servers() == 1)
            ck_assert_msg(atomic_load(&seq_calls) > 0, "prune %ld: seq never called", modes[m]);
    }
}

START_TEST(test_prune_fork_seq_counts)
{
    check_seq_counts(_i, fib20_fork_seq);
}
END_TEST

/* The same for typed forks with a sequential version: pruned as untyped
 * forks are, each pruned fork one call of seq, whose value its sync
 * returns. */
START_TEST(test_prune_fork_long_seq_counts)
{
    check_seq_counts(_i, fib20_fork_long_seq);
}
END_TEST

/* ------------------------------------------------------------- f_pruning */

static atomic_long cut_calls;

/* fib_long with the cut-off that f_pruning(3) gives: where the library
 * prunes, the plain recursion, counted. */
static long fib_cut(f_frame fr, long n, long unused, void *unused2)
{
    if (n < 2)
        return n;
    if (f_pruning()) {
        atomic_fetch_add(&cut_calls, 1);
        return fib_seq(n);
    }
    FJ_REQUIRE(f_fork_long(&fr, fib_cut, n - 1, 0, NULL) == F_OK);
    long b = fib_cut(fr, n - 2, 0, NULL);
    return f_sync_long(&fr, fib_cut) + b;
}

/* The same, untyped: results through arg. */
static void fib_cut_void(long n, long unused, void *result)
{
    long a, b;
    if (n < 2 || f_pruning()) {
        if (n >= 2)
            atomic_fetch_add(&cut_calls, 1);
        *(long *)result = fib_seq(n);
        return;
    }
    FJ_REQUIRE(f_fork(fib_cut_void, n - 1, 0, &a) == F_OK);
    FJ_REQUIRE(f_fork(fib_cut_void, n - 2, 0, &b) == F_OK);
    FJ_REQUIRE(f_join() == F_OK);
    *(long *)result = a + b;
}

/*
 * A recursion that runs its subtree sequentially where f_pruning says so
 * gets the sequential result at every threshold and server count, typed
 * and untyped; with pruning off it never cuts (the deque is far from
 * full); alone on a server with a threshold below the depth it does.  Outside a filament,
 * before f_initialize and between runs, f_pruning is 0, inline or not.
 */
START_TEST(test_prune_pruning_results)
{
    ck_assert_int_eq(f_pruning(), 0);
    ck_assert_int_eq((f_pruning)(), 0);
    FJ_START(_i);
    for (int m = 0; m < NMODES; ++m) {
        long r = -1, v = -1;
        f_set_prune(modes[m]);
        atomic_store(&cut_calls, 0);
        ck_assert_int_eq(f_run_long(fib_cut, 22, 0, NULL, &r), F_OK);
        ck_assert_int_eq(f_fork(fib_cut_void, 21, 0, &v), F_OK);
        ck_assert_int_eq(fj_parallel(), F_OK);
        ck_assert_int_eq(r, fib_seq(22));
        ck_assert_int_eq(v, fib_seq(21));
        ck_assert_int_eq(f_pruning(), 0);
        ck_assert_int_eq((f_pruning)(), 0);
        if (modes[m] == 0)
            ck_assert_int_eq(atomic_load(&cut_calls), 0);
        else if (modes[m] < 10 && f_num_servers() == 1)
            ck_assert_msg(atomic_load(&cut_calls) > 0, "prune %ld: never cut", modes[m]);
    }
}
END_TEST

static atomic_int agree_bad;

static void nothing(long unused, long unused2, void *ran)
{
    atomic_fetch_add((atomic_int *)ran, 1);
}

/* Before each of WIDE_FORKS forks, f_pruning's answer; then whether the
 * fork was pruned (its child has run when the fork returns). */
#define WIDE_FORKS 40
static void agree_root(long unused, long unused2, void *unused3)
{
    atomic_int ran[WIDE_FORKS];
    for (int k = 0; k < WIDE_FORKS; ++k) {
        atomic_init(&ran[k], 0);
        int said = f_pruning() != 0;
        FJ_REQUIRE(f_fork(nothing, 0, 0, &ran[k]) == F_OK);
        if (said != (atomic_load(&ran[k]) == 1))
            atomic_fetch_add(&agree_bad, 1);
    }
    FJ_REQUIRE(f_join() == F_OK);
}

/* On one server, where no thief asks, f_pruning is 1 exactly before the
 * forks that are pruned, at every threshold (f_fork(3)). */
START_TEST(test_prune_pruning_agrees)
{
    FJ_START(_i);
    if (f_num_servers() > 1)
        return;
    for (int m = 0; m < NMODES; ++m) {
        f_set_prune(modes[m]);
        atomic_store(&agree_bad, 0);
        ck_assert_int_eq(f_fork(agree_root, 0, 0, NULL), F_OK);
        ck_assert_int_eq(fj_parallel(), F_OK);
        ck_assert_msg(atomic_load(&agree_bad) == 0, "prune %ld: %d forks disagree", modes[m],
                      atomic_load(&agree_bad));
    }
}
END_TEST

/* ------------------------------------------------------------ thresholds */

#define WIDE 40
static atomic_int wide_ran[WIDE];
static atomic_int wide_ran_early;

static void wide_child(long k, long unused, void *unused2)
{
    atomic_fetch_add(&wide_ran[k], 1);
}

/* One filament forks WIDE children and counts those that had run before
 * its join. */
static void wide_root(long unused, long unused2, void *unused3)
{
    for (long k = 0; k < WIDE; ++k)
        FJ_REQUIRE(f_fork(wide_child, k, 0, NULL) == F_OK);
    for (long k = 0; k < WIDE; ++k)
        atomic_fetch_add(&wide_ran_early, atomic_load(&wide_ran[k]));
    FJ_REQUIRE(f_join() == F_OK);
}

/* On one server, threshold N keeps N + 1 children and prunes the rest,
 * which therefore have run when f_fork returns; auto keeps
 * FI_PRUNE_DEPTH (3, f_fork(3)); 0 keeps them all. */
START_TEST(test_prune_threshold_exact)
{
    FJ_START(_i);
    for (int m = 0; m < NMODES; ++m) {
        struct f_stats st;
        f_set_prune(modes[m]);
        ck_assert_int_eq(f_reset_stats(), F_OK);
        atomic_store(&wide_ran_early, 0);
        for (int k = 0; k < WIDE; ++k)
            atomic_store(&wide_ran[k], 0);
        ck_assert_int_eq(f_fork(wide_root, 0, 0, NULL), F_OK);
        ck_assert_int_eq(fj_parallel(), F_OK);
        for (int k = 0; k < WIDE; ++k)
            ck_assert_int_eq(atomic_load(&wide_ran[k]), 1);
        ck_assert_int_eq(f_get_stats(F_ANY, &st), F_OK);
        ck_assert_int_eq(st.forks, WIDE + 1);
        ck_assert_uint_le(st.pruned_forks, st.forks);
        if (modes[m] == 0)
            ck_assert_int_eq(st.pruned_forks, 0);
        if (f_num_servers() > 1)
            continue;
        long kept = modes[m] == F_PRUNE_AUTO ? FI_PRUNE_DEPTH : modes[m] == 0 ? WIDE
                                                                              : modes[m] + 1;
        if (kept > WIDE)
            kept = WIDE;
        ck_assert_int_eq(st.pruned_forks, WIDE - kept);
        ck_assert_int_eq(atomic_load(&wide_ran_early), WIDE - kept);    /* pruned: calls */
    }
}
END_TEST

/* -------------------------------------------------------------- counters */

static void mixed_root(long n, long unused, void *unused2)
{
    f_frame fr = f_frame_here();
    long r;
    fib(n, 0, &r);
    FJ_REQUIRE(r == fib_seq(n));
    FJ_REQUIRE(fib_long(fr, n, 0, NULL) == fib_seq(n));
}

/*
 * The counters add up, per server and in sum: pruned <= forks, every fork
 * is either pruned or pushed, every pushed fork runs once
 * (filaments_run = forks - pruned when only fork/join filaments ran), the
 * steals are among them, and with pruning off nothing is pruned.  The sum
 * (F_ANY) is the sum of the servers; its peak their maximum.
 */
START_TEST(test_prune_stats_consistent)
{
    FJ_START(_i);
    for (int m = 0; m < NMODES; ++m) {
        struct f_stats all, one, sum;
        f_set_prune(modes[m]);
        ck_assert_int_eq(f_reset_stats(), F_OK);
        for (long k = 0; k < 4; ++k)
            ck_assert_int_eq(f_fork(mixed_root, 14 + k, 0, NULL), F_OK);
        ck_assert_int_eq(fj_parallel(), F_OK);
        ck_assert_int_eq(f_get_stats(F_ANY, &all), F_OK);
        memset(&sum, 0, sizeof sum);
        for (int s = 0; s < f_num_servers(); ++s) {
            ck_assert_int_eq(f_get_stats(s, &one), F_OK);
            ck_assert_uint_le(one.pruned_forks, one.forks);
            if (modes[m] == 0)
                ck_assert_uint_eq(one.pruned_forks, 0);
            sum.forks += one.forks;
            sum.pruned_forks += one.pruned_forks;
            sum.filaments_run += one.filaments_run;
            sum.steals += one.steals;
            if (one.peak_live_forks > sum.peak_live_forks)
                sum.peak_live_forks = one.peak_live_forks;
        }
        ck_assert_uint_eq(all.forks, sum.forks);
        ck_assert_uint_eq(all.pruned_forks, sum.pruned_forks);
        ck_assert_uint_eq(all.filaments_run, sum.filaments_run);
        ck_assert_uint_eq(all.steals, sum.steals);
        ck_assert_uint_eq(all.peak_live_forks, sum.peak_live_forks);
        ck_assert_uint_le(all.pruned_forks, all.forks);
        ck_assert_uint_eq(all.filaments_run, all.forks - all.pruned_forks);
        ck_assert_uint_le(all.steals, all.filaments_run);
        if (f_num_servers() == 1)
            ck_assert_uint_eq(all.steals, 0);
        /* Reset: all zero but the peak, which restarts from what is queued (nothing). */
        ck_assert_int_eq(f_reset_stats(), F_OK);
        ck_assert_int_eq(f_get_stats(F_ANY, &all), F_OK);
        ck_assert_uint_eq(all.forks, 0);
        ck_assert_uint_eq(all.pruned_forks, 0);
        ck_assert_uint_eq(all.filaments_run, 0);
        ck_assert_uint_eq(all.peak_live_forks, 0);
    }
}
END_TEST

/* fib(20) keeps few forks live: each level holds a handful of children,
 * whatever the threshold, so the peak stays within a small multiple of the
 * recursion depth (20). */
START_TEST(test_prune_peak_live_fib)
{
    FJ_START(_i);
    for (int m = 0; m < NMODES; ++m) {
        long r = -1;
        struct f_stats st;
        f_set_prune(modes[m]);
        ck_assert_int_eq(f_reset_stats(), F_OK);
        ck_assert_int_eq(f_fork(fib, 20, 0, &r), F_OK);
        ck_assert_int_eq(fj_parallel(), F_OK);
        ck_assert_int_eq(r, 6765);
        ck_assert_int_eq(f_get_stats(F_ANY, &st), F_OK);
        ck_assert_uint_ge(st.peak_live_forks, 1);
        ck_assert_msg(st.peak_live_forks < 20 * 20, "prune %ld: peak %lu live forks for fib(20)",
                      modes[m], st.peak_live_forks);
    }
}
END_TEST

/* ------------------------------------------------------------ set, get */

START_TEST(test_prune_set_get)
{
    FJ_START(_i);
    ck_assert_int_eq(f_get_prune(), F_PRUNE_AUTO);    /* the default */
    f_set_prune(7);
    ck_assert_int_eq(f_get_prune(), 7);
    f_set_prune(0);
    ck_assert_int_eq(f_get_prune(), 0);
    f_set_prune(-5);                                  /* negative: auto */
    ck_assert_int_eq(f_get_prune(), F_PRUNE_AUTO);
    f_set_prune(3);
    long r = -1;
    ck_assert_int_eq(f_fork(fib, 10, 0, &r), F_OK);
    ck_assert_int_eq(fj_parallel(), F_OK);
    ck_assert_int_eq(r, 55);
    ck_assert_int_eq(f_get_prune(), 3);               /* holds across runs */
    f_finalize();
    FJ_START(_i);
    ck_assert_int_eq(f_get_prune(), F_PRUNE_AUTO);    /* until f_finalize */
}
END_TEST

/* ------------------------------------------------------- FILAMENTS_PRUNE */

#define BAD 0    /* f_initialize refuses the value */
#define GOOD 1

static const struct {
    const char *value;
    int good;
    long prune;
} env_cases[] = {
    { "auto", GOOD, F_PRUNE_AUTO },
    { "0", GOOD, 0 },
    { "1", GOOD, 1 },
    { "17", GOOD, 17 },
    { "9223372036854775807", GOOD, 9223372036854775807L },
    { "", BAD, 0 },
    { "-1", BAD, 0 },
    { "+3", BAD, 0 },
    { " 3", BAD, 0 },
    { "3 ", BAD, 0 },
    { "3x", BAD, 0 },
    { "0x10", BAD, 0 },
    { "1e3", BAD, 0 },
    { "AUTO", BAD, 0 },
    { "auto ", BAD, 0 },
    { "never", BAD, 0 },
    { "9223372036854775808", BAD, 0 },
    { "99999999999999999999999", BAD, 0 },
};
#define NENV ((int)(sizeof env_cases / sizeof *env_cases))

/* Loop index: the case (i / 4) at fj_servers(i). */
START_TEST(test_prune_env)
{
    int c = fj_variant(_i);
    ck_assert_int_eq(setenv("FILAMENTS_PRUNE", env_cases[c].value, 1), 0);
    int rc = f_initialize(fj_servers(_i));
    if (!env_cases[c].good) {
        ck_assert_msg(rc == F_EINVAL, "FILAMENTS_PRUNE=\"%s\": f_initialize returned %d",
                      env_cases[c].value, rc);
    } else {
        ck_assert_msg(rc == F_OK, "FILAMENTS_PRUNE=\"%s\": f_initialize returned %d",
                      env_cases[c].value, rc);
        ck_assert_int_eq(f_get_prune(), env_cases[c].prune);
        long r = -1;
        ck_assert_int_eq(f_fork(fib, 16, 0, &r), F_OK);
        ck_assert_int_eq(fj_parallel(), F_OK);
        ck_assert_int_eq(r, 987);
        f_finalize();
    }
    /* A refused value leaves the library uninitialized, and usable. */
    ck_assert_int_eq(f_num_servers(), F_ESTATE);
    ck_assert_int_eq(unsetenv("FILAMENTS_PRUNE"), 0);
    FJ_START(_i);
    ck_assert_int_eq(f_get_prune(), F_PRUNE_AUTO);
}
END_TEST

/*
 * F_PRUNE_AUTO's depth at a thief's request, as f_fork(3) states the
 * rule.  A deep tree's pieces are mostly leaves that end at once, and its
 * few large ones are still running: 3 big pieces in 100 (the rest of them
 * 0.2 us, an average of 0.55 us) must double the depth, which a rule on
 * the average refused (uts's binomial tree at 2 servers then made 2-9
 * times the steals of pruning off).  One big piece in a thousand (a tiny
 * one the system preempted) must not.
 */
START_TEST(test_prune_auto_depth_rule)
{
    const size_t cap = 1024, d = FI_PRUNE_DEPTH;
    const unsigned long quick = FI_PRUNE_QUICK_NS / 2, slow = FI_PRUNE_SLOW_NS + 1;
    const unsigned long between = (FI_PRUNE_QUICK_NS + FI_PRUNE_SLOW_NS) / 2;
    /* The run's first request is no sign either way. */
    ck_assert_uint_eq(fi_prune_next_depth(d, cap, quick, 1, 3, 100), d);
    ck_assert_uint_eq(fi_prune_next_depth(4 * d, cap, slow, 1, 0, 100), 4 * d);
    /* A quick request: double while one piece in FI_PRUNE_BIG_SHARE ran long. */
    ck_assert_uint_eq(fi_prune_next_depth(d, cap, quick, 0, 3, 100), 2 * d);
    ck_assert_uint_eq(fi_prune_next_depth(d, cap, quick, 0, 1, FI_PRUNE_BIG_SHARE), 2 * d);
    ck_assert_uint_eq(fi_prune_next_depth(d, cap, quick, 0, 0, 0), 2 * d);
    ck_assert_uint_eq(fi_prune_next_depth(4 * d, cap, quick, 0, 1, 1000), 2 * d);
    ck_assert_uint_eq(fi_prune_next_depth(4 * d, cap, quick, 0, 1, FI_PRUNE_BIG_SHARE + 1),
                      2 * d);
    /* ... up to the whole deque. */
    ck_assert_uint_eq(fi_prune_next_depth(cap / 2 + 1, cap, quick, 0, 3, 100), cap);
    ck_assert_uint_eq(fi_prune_next_depth(cap, cap, quick, 0, 3, 100), cap);
    /* A slow request halves, a request between keeps it; never below the start. */
    ck_assert_uint_eq(fi_prune_next_depth(4 * d, cap, slow, 0, 3, 100), 2 * d);
    ck_assert_uint_eq(fi_prune_next_depth(4 * d, cap, between, 0, 3, 100), 4 * d);
    ck_assert_uint_eq(fi_prune_next_depth(d, cap, slow, 0, 0, 100), d);
    ck_assert_uint_eq(fi_prune_next_depth(2 * d - 1, cap, slow, 0, 0, 100), 2 * d - 1);
}
END_TEST

/* -------------------------------------------------------------- suite */

Suite *make_suite(void)
{
    Suite *s = suite_create("prune");

    TCase *core = fj_tcase(s, "core");
    FJ_ADD(core, test_prune_results_identical, 0, 16);
    FJ_ADD(core, test_prune_fork_seq_counts, 0, 16);
    FJ_ADD(core, test_prune_fork_long_seq_counts, 0, 16);
    FJ_ADD(core, test_prune_pruning_results, 0, 16);
    FJ_ADD(core, test_prune_pruning_agrees, 0, 4);
    FJ_ADD(core, test_prune_threshold_exact, 0, 8);
    FJ_ADD(core, test_prune_stats_consistent, 0, 16);
    FJ_ADD(core, test_prune_peak_live_fib, 0, 16);
    FJ_ADD(core, test_prune_set_get, 0, 4);
    tcase_add_test(core, test_prune_auto_depth_rule);

    TCase *env = fj_tcase(s, "env");
    FJ_ADD(env, test_prune_env, 0, 4 * NENV);
    return s;
}
