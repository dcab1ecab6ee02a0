/*
 * check_forkjoin.c - suite "forkjoin": the results of fork/join filaments
 * [paper §2.3, §4.5] against sequential code, from every place a fork may
 * be made (a root from main, RTC, iterative and barrier code, a child),
 * typed and untyped and variable-argument forks, the idle time of a join
 * that waits for a thief, the limits (a chain of 100000, a full deque),
 * random trees, termination, and every error.
 *
 * Filaments check with FJ_REQUIRE, which costs nothing when it holds and
 * fails the test from any server; runs go through fj_parallel, which turns
 * a deadlock into a failure that says so.  Every test with servers runs at
 * 1, 2, 4 and 8: the loop index picks the count, the rest of it the
 * pruning mode or the seed (fj.h).
 */
#include "fj.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "memory.h"    /* fi_alloc_fail_reset, FI_DEQUE_SLOTS: failure injection, the cap */

/* The deadlock watchdog of the tests that deadlock while a known bug
 * stands: their runs take milliseconds. */
#define FJ_SHORT_S 10

/* Prune modes a variant cycles through. */
static const long prune_modes[] = { F_PRUNE_AUTO, 0, 1, 3 };

static long prune_mode(int i)
{
    return prune_modes[fj_variant(i) % 4];
}

/* --------------------------------------------------------- sequential */

static long fib_seq(long n)
{
    return n < 2 ? n : fib_seq(n - 1) + fib_seq(n - 2);
}

static long term(long k)
{
    return (long)((unsigned long)k * 2654435761u % 1000u);
}

static long sum_seq(long lo, long hi)
{
    long s = 0;
    for (long k = lo; k < hi; ++k)
        s += term(k);
    return s;
}

/* ------------------------------------------------- untyped, by pointer */

static void fib(long n, long unused, void *result)
{
    long a, b;
    if (n < 2) {
        *(long *)result = n;
        return;
    }
    FJ_REQUIRE(f_fork(fib, n - 1, 0, &a) == F_OK);
    fib(n - 2, 0, &b);
    FJ_REQUIRE(f_join() == F_OK);
    *(long *)result = a + b;
}

/* Two children per level, both forked; leaves of at most 16 terms. */
static void sum_range(long lo, long hi, void *result)
{
    if (hi - lo <= 16) {
        *(long *)result = sum_seq(lo, hi);
        return;
    }
    long mid = lo + (hi - lo) / 2, a = -1, b = -1;
    FJ_REQUIRE(f_fork(sum_range, lo, mid, &a) == F_OK);
    FJ_REQUIRE(f_fork(sum_range, mid, hi, &b) == F_OK);
    FJ_REQUIRE(f_join() == F_OK);
    FJ_REQUIRE(a >= 0 && b >= 0);
    *(long *)result = a + b;
}

START_TEST(test_forkjoin_fib_root)
{
    FJ_START(_i);
    f_set_prune(prune_mode(_i));
    long r = -1;
    ck_assert_int_eq(f_fork(fib, 20, 0, &r), F_OK);
    ck_assert_int_eq(fj_parallel(), F_OK);
    ck_assert_int_eq(r, 6765);
}
END_TEST

START_TEST(test_forkjoin_sum_root)
{
    FJ_START(_i);
    f_set_prune(prune_mode(_i));
    long r = -1;
    ck_assert_int_eq(f_fork(sum_range, 3, 50003, &r), F_OK);
    ck_assert_int_eq(fj_parallel(), F_OK);
    ck_assert_int_eq(r, sum_seq(3, 50003));
}
END_TEST

/* The library function itself, as a function pointer reaches it. */
static void fib_call(long n, long unused, void *result)
{
    long a, b;
    if (n < 2) {
        *(long *)result = n;
        return;
    }
    FJ_REQUIRE((f_fork)(fib_call, n - 1, 0, &a) == F_OK);
    FJ_REQUIRE((f_fork)(fib_call, n - 2, 0, &b) == F_OK);
    FJ_REQUIRE((f_join)() == F_OK);
    *(long *)result = a + b;
}

START_TEST(test_forkjoin_library_functions)
{
    FJ_START(_i);
    f_set_prune(prune_mode(_i));
    long r = -1;
    ck_assert_int_eq((f_fork)(fib_call, 18, 0, &r), F_OK);
    ck_assert_int_eq(fj_parallel(), F_OK);
    ck_assert_int_eq(r, 2584);
}
END_TEST

/* ------------------------------------------------------- from RTC code */

#define RTC_N 48

static long rtc_fib[RTC_N], rtc_sum[RTC_N];

static void rtc_forker(long k, long unused, void *arg)
{
    fib(10 + k % 8, 0, &rtc_fib[k]);
    sum_range(k, k + 3000, &rtc_sum[k]);
}

START_TEST(test_forkjoin_in_rtc)
{
    FJ_START(_i);
    f_set_prune(prune_mode(_i));
    int n = f_num_servers();
    for (long k = 0; k < RTC_N; ++k)
        ck_assert_int_eq(f_rtc_thread(k % 3 == 0 ? F_ANY : (int)(k % n), rtc_forker, k, 0, NULL),
                         F_OK);
    ck_assert_int_eq(fj_parallel(), F_OK);
    for (long k = 0; k < RTC_N; ++k) {
        ck_assert_int_eq(rtc_fib[k], fib_seq(10 + k % 8));
        ck_assert_int_eq(rtc_sum[k], sum_seq(k, k + 3000));
    }
}
END_TEST

/* ------------------------------------------------ from iterative code */

#define ITER_N 16
#define ITER_PASSES 12

static struct {
    long pass;                 /* written by barrier code only */
    long fib[ITER_N], sum[ITER_N];
    long marks[ITER_N][8];     /* by unjoined children */
    int bad;
} it;

static void mark_pass(long k, long slot, void *unused)
{
    it.marks[k][slot] = it.pass;
}

/* Each pass: fork and join a tree, and fork children it never joins. */
static void iter_forker(long k, long unused, void *arg)
{
    long p = it.pass;
    fib(5 + (k + p) % 10, 0, &it.fib[k]);
    sum_range(p, p + 500 + k * 10, &it.sum[k]);
    for (long s = 0; s < 8; ++s)
        FJ_REQUIRE(f_fork(mark_pass, k, s, NULL) == F_OK);
}

/* The barrier: every filament's results for this pass, and its unjoined
 * children done, before the next pass begins. */
static int iter_check(void *arg)
{
    long p = it.pass;
    for (long k = 0; k < ITER_N; ++k) {
        if (it.fib[k] != fib_seq(5 + (k + p) % 10) || it.sum[k] != sum_seq(p, p + 500 + k * 10))
            it.bad++;
        for (int s = 0; s < 8; ++s)
            if (it.marks[k][s] != p)
                it.bad++;
    }
    return ++it.pass == ITER_PASSES ? F_DONE : F_NOTDONE;
}

START_TEST(test_forkjoin_in_iterative)
{
    FJ_START(_i);
    f_set_prune(prune_mode(_i));
    memset(&it, 0, sizeof it);
    for (long k = 0; k < ITER_N; ++k)
        for (int s = 0; s < 8; ++s)
            it.marks[k][s] = -1;
    ck_assert_int_ge(f_new_barrier(iter_check, NULL), 0);
    for (long k = 0; k < ITER_N; ++k)
        ck_assert_int_eq(f_iterative_thread((int)(k % f_num_servers()), iter_forker, k, 0, NULL),
                         F_OK);
    ck_assert_int_eq(fj_parallel(), F_OK);
    ck_assert_int_eq(it.pass, ITER_PASSES);
    ck_assert_int_eq(it.bad, 0);
}
END_TEST

/* -------------------------------------------------- from barrier code */

static struct {
    int passes, bad;
    int server;
    atomic_int elsewhere;
} bar;

static void where(long unused, long unused2, void *unused3)
{
    if (f_my_server() != bar.server)
        atomic_fetch_add(&bar.elsewhere, 1);
}

static void idle_iter(long k, long unused, void *unused2)
{
    fj_spin(100);
}

/* One phase of 4 iterative filaments per server and barrier code `seq`,
 * run with test _i's servers and pruning mode. */
static void run_barrier_phase(int _i, f_seq_func seq, f_func iter)
{
    FJ_START(_i);
    f_set_prune(prune_mode(_i));
    ck_assert_int_ge(f_new_barrier(seq, NULL), 0);
    for (int k = 0; k < 4 * f_num_servers(); ++k)
        ck_assert_int_eq(f_iterative_thread(k % f_num_servers(), iter, k, 0, NULL), F_OK);
    ck_assert_int_eq(fj_parallel(), F_OK);
}

/* Barrier code forks and joins; it runs alone, so its children run on its
 * own server (f_fork(3)). */
static int bar_seq(void *arg)
{
    long r = -1, s = -1;
    bar.server = f_my_server();
    if (f_fork(fib, 16, 0, &r) != F_OK || f_fork(sum_range, 0, 4000, &s) != F_OK)
        bar.bad++;
    for (int k = 0; k < 50; ++k)
        if (f_fork(where, 0, 0, NULL) != F_OK)
            bar.bad++;
    if (f_join() != F_OK || r != 987 || s != sum_seq(0, 4000))
        bar.bad++;
    return ++bar.passes == 6 ? F_DONE : F_NOTDONE;
}

START_TEST(test_forkjoin_in_barrier)
{
    memset(&bar, 0, sizeof bar);
    run_barrier_phase(_i, bar_seq, idle_iter);
    ck_assert_int_eq(bar.passes, 6);
    ck_assert_int_eq(bar.bad, 0);
    ck_assert_int_eq(atomic_load(&bar.elsewhere), 0);
}
END_TEST

/* Barrier code that returns with children unjoined: they run before the
 * next pass (whose filaments see all of them done) and before f_parallel
 * returns after F_DONE, on the barrier's server; they are barrier code too,
 * so they may not create run-to-completion filaments. */
static struct {
    int passes, server;
    atomic_int ran, elsewhere, created, late;
} left;

static void left_child(long unused, long unused2, void *unused3)
{
    if (f_my_server() != left.server)
        atomic_fetch_add(&left.elsewhere, 1);
    if (f_rtc_thread(0, where, 0, 0, NULL) != F_ESTATE)
        atomic_fetch_add(&left.created, 1);
    atomic_fetch_add(&left.ran, 1);
}

static void left_iter(long k, long unused, void *unused2)
{
    if (atomic_load(&left.ran) != 40 * left.passes)
        atomic_fetch_add(&left.late, 1);
}

static int left_seq(void *arg)
{
    left.server = f_my_server();
    for (int k = 0; k < 40; ++k)
        if (f_fork(left_child, 0, 0, NULL) != F_OK)
            atomic_fetch_add(&left.late, 1000);
    return ++left.passes == 5 ? F_DONE : F_NOTDONE;
}

START_TEST(test_forkjoin_barrier_leaves_children)
{
    memset(&left, 0, sizeof left);
    run_barrier_phase(_i, left_seq, left_iter);
    ck_assert_int_eq(left.passes, 5);
    ck_assert_int_eq(atomic_load(&left.ran), 5 * 40);
    ck_assert_int_eq(atomic_load(&left.late), 0);
    ck_assert_int_eq(atomic_load(&left.elsewhere), 0);
    ck_assert_int_eq(atomic_load(&left.created), 0);
    ck_assert_int_eq(fj_parallel(), F_OK);    /* nothing was left for this run */
    ck_assert_int_eq(atomic_load(&left.ran), 5 * 40);
}
END_TEST

/* ------------------------------------------------------- many roots */

#define ROOTS 1000

static long root_out[ROOTS];

static void root_fn(long k, long round, void *unused)
{
    long r;
    fib(k % 13, 0, &r);
    root_out[k] = r + round * 1000;
}

/* f_parallel is the join of the roots; several runs, each its own roots. */
START_TEST(test_forkjoin_many_roots)
{
    FJ_START(_i);
    f_set_prune(prune_mode(_i));
    for (long round = 0; round < 4; ++round) {
        long n = ROOTS >> round;
        for (long k = 0; k < n; ++k)
            ck_assert_int_eq(f_fork(root_fn, k, round, NULL), F_OK);
        ck_assert_int_eq(fj_parallel(), F_OK);
        for (long k = 0; k < n; ++k)
            FJ_REQUIRE(root_out[k] == fib_seq(k % 13) + round * 1000);
    }
}
END_TEST

/* ---------------------------------------------------------- typed */

static long misnamed(f_frame fr, long unused, long unused2, void *unused3);

/* misname != 0: every sync names another function than its fork (misnamed). */
static long fib_long(f_frame fr, long n, long misname, void *unused2)
{
    if (n < 2)
        return n;
    FJ_REQUIRE(f_fork_long(&fr, fib_long, n - 1, misname, NULL) == F_OK);
    long b = fib_long(fr, n - 2, misname, NULL);
    return (misname ? f_sync_long(&fr, misnamed) : f_sync_long(&fr, fib_long)) + b;
}

static double harmonic_seq(long lo, long hi)
{
    if (hi - lo <= 8) {
        double s = 0;
        for (long k = lo; k < hi; ++k)
            s += 1.0 / (double)(k + 1);
        return s;
    }
    long mid = lo + (hi - lo) / 2;
    double a = harmonic_seq(lo, mid);
    return a + harmonic_seq(mid, hi);
}

/* The same sums in the same order as harmonic_seq: bitwise equal. */
static double harmonic(f_frame fr, long lo, long hi, void *unused)
{
    if (hi - lo <= 8)
        return harmonic_seq(lo, hi);
    long mid = lo + (hi - lo) / 2;
    FJ_REQUIRE(f_fork_double(&fr, harmonic, lo, mid, NULL) == F_OK);
    double b = harmonic(fr, mid, hi, NULL);
    double a = f_sync_double(&fr, harmonic);
    return a + b;
}

#define ITEMS 4096
static long items[ITEMS];

static long *argmax_seq(long lo, long hi)
{
    if (hi - lo == 1)
        return &items[lo];
    long mid = lo + (hi - lo) / 2;
    long *a = argmax_seq(lo, mid), *b = argmax_seq(mid, hi);
    return *b > *a ? b : a;
}

/* Pointer results: the first largest item's address, two forks per level. */
static void *argmax(f_frame fr, long lo, long hi, void *unused)
{
    if (hi - lo == 1)
        return &items[lo];
    long mid = lo + (hi - lo) / 2;
    FJ_REQUIRE(f_fork_ptr(&fr, argmax, lo, mid, NULL) == F_OK);
    FJ_REQUIRE(f_fork_ptr(&fr, argmax, mid, hi, NULL) == F_OK);
    long *b = f_sync_ptr(&fr, argmax);    /* reverse order: the last fork first */
    long *a = f_sync_ptr(&fr, argmax);
    FJ_REQUIRE(a != NULL && b != NULL);
    return *b > *a ? b : a;
}

static struct {
    long l;
    double d;
    long *p;
} typed_out;

static void typed_root(long n, long unused, void *unused2)
{
    f_frame fr = f_frame_here();
    typed_out.l = fib_long(fr, n, 0, NULL);
    typed_out.d = harmonic(fr, 0, 20000, NULL);
    typed_out.p = argmax(fr, 0, ITEMS, NULL);
}

START_TEST(test_forkjoin_typed)
{
    FJ_START(_i);
    f_set_prune(prune_mode(_i));
    for (long k = 0; k < ITEMS; ++k)
        items[k] = (long)(fj_mix((uint64_t)k + 77) % 100000);
    ck_assert_int_eq(f_fork(typed_root, 21, 0, NULL), F_OK);
    ck_assert_int_eq(fj_parallel(), F_OK);
    ck_assert_int_eq(typed_out.l, fib_seq(21));
    double h = harmonic_seq(0, 20000);
    ck_assert(memcmp(&typed_out.d, &h, sizeof h) == 0);
    ck_assert_ptr_eq(typed_out.p, argmax_seq(0, ITEMS));
}
END_TEST

/* Typed forks of three types and an untyped one in one filament, synced in
 * reverse: a sync finds an unjoined untyped child above its slot and runs
 * it first.  m(n) = m(n-1) + fib(n-2) + 2n + items[n]. */
static double half(f_frame fr, long n, long unused, void *unused2)
{
    return (double)n * 0.5;
}

static void *item_at(f_frame fr, long n, long unused, void *unused2)
{
    return &items[n % ITEMS];
}

static long mixed_seq(long n)
{
    return n < 2 ? n : mixed_seq(n - 1) + fib_seq(n - 2) + 2 * n + items[n % ITEMS];
}

static long mixed(f_frame fr, long n, long unused, void *unused2)
{
    if (n < 2)
        return n;
    long x = -1;
    FJ_REQUIRE(f_fork_long(&fr, mixed, n - 1, 0, NULL) == F_OK);
    FJ_REQUIRE(f_fork(fib, n - 2, 0, &x) == F_OK);
    FJ_REQUIRE(f_fork_double(&fr, half, n, 0, NULL) == F_OK);
    FJ_REQUIRE(f_fork_ptr(&fr, item_at, n, 0, NULL) == F_OK);
    long *p = f_sync_ptr(&fr, item_at);
    double d = f_sync_double(&fr, half);
    long m = f_sync_long(&fr, mixed);
    FJ_REQUIRE(f_join() == F_OK);
    FJ_REQUIRE(x == fib_seq(n - 2));
    FJ_REQUIRE(p == &items[n % ITEMS]);
    return m + x + (long)(d * 4) + *p;
}

static void mixed_root(long n, long unused, void *out)
{
    f_frame fr = f_frame_here();
    *(long *)out = mixed(fr, n, 0, NULL);
}

START_TEST(test_forkjoin_typed_mixed)
{
    FJ_START(_i);
    f_set_prune(prune_mode(_i));
    for (long k = 0; k < ITEMS; ++k)
        items[k] = k * 3;
    long r = -1;
    ck_assert_int_eq(f_fork(mixed_root, 22, 0, &r), F_OK);
    ck_assert_int_eq(fj_parallel_within(FJ_SHORT_S), F_OK);
    ck_assert_int_eq(r, mixed_seq(22));
}
END_TEST

/* f_join waits for every child forked since the last join (f_fork(3)); it
 * does not wait for typed forks, but an untyped child forked before a typed
 * one is still a child of this join. */
static void set_flag(long v, long unused, void *flag)
{
    *(long *)flag = v;
}

static long ret(f_frame fr, long v, long unused, void *unused2)
{
    return v;
}

static void join_under_typed(long unused, long unused2, void *out)
{
    f_frame fr = f_frame_here();
    long flag = 0;
    FJ_REQUIRE(f_fork(set_flag, 1, 0, &flag) == F_OK);
    FJ_REQUIRE(f_fork_long(&fr, ret, 42, 0, NULL) == F_OK);
    FJ_REQUIRE(f_join() == F_OK);
    long seen = flag;
    long v = f_sync_long(&fr, ret);
    FJ_REQUIRE(f_join() == F_OK);
    ((long *)out)[0] = seen;
    ((long *)out)[1] = v;
}

START_TEST(test_forkjoin_join_under_typed_fork)
{
    FJ_START(_i);
    f_set_prune(prune_mode(_i));
    long out[2] = { -1, -1 };
    ck_assert_int_eq(f_fork(join_under_typed, 0, 0, out), F_OK);
    ck_assert_int_eq(fj_parallel(), F_OK);
    ck_assert_int_eq(out[1], 42);
    ck_assert_msg(out[0] == 1, "f_join returned before the untyped child forked before a "
                               "typed fork had run");
}
END_TEST

/* The frame is a hint: where untyped forks made it out of date, or it is
 * no frame at all, a typed fork or sync goes through the library, which
 * does it right and sets the frame to the bottom (f_fork(3)).  No frame
 * pointer is a bad argument. */
static long stale_frame(f_frame fr, long n, long unused, void *out)
{
    long *o = out, u = -1, w = -1;
    FJ_REQUIRE(f_fork(fib, 10, 0, &u) == F_OK);    /* the frame is now below the bottom */
    FJ_REQUIRE(f_fork_long(&fr, ret, n, 0, NULL) == F_OK);
    o[0] = fr == f_frame_here();
    FJ_REQUIRE(f_fork(fib, 11, 0, &w) == F_OK);    /* above the typed slot */
    long v = f_sync_long(&fr, ret);
    o[1] = fr == f_frame_here();
    f_frame none = NULL;
    FJ_REQUIRE(f_fork_long(&none, ret, 3, 0, NULL) == F_OK);
    v += f_sync_long(&none, ret);
    /* No frame pointer at all: a bad argument, nothing forked or synced. */
    f_frame here = f_frame_here();
    FJ_REQUIRE(f_fork_long(NULL, ret, 5, 0, NULL) == F_EINVAL);
    FJ_REQUIRE((f_fork_long)(NULL, ret, 5, 0, NULL) == F_EINVAL);
    FJ_REQUIRE(f_fork_double(NULL, half, 5, 0, NULL) == F_EINVAL);
    FJ_REQUIRE(f_frame_here() == here);
    FJ_REQUIRE(f_sync_long(NULL, ret) == 0 && (f_sync_long)(NULL, ret) == 0);
    FJ_REQUIRE(f_sync_double(NULL, half) == 0.0 && f_sync_ptr(NULL, NULL) == NULL);
    FJ_REQUIRE(f_frame_here() == here);
    FJ_REQUIRE(f_join() == F_OK);
    return v + u + w;
}

static void stale_frame_root(long n, long unused, void *out)
{
    ((long *)out)[2] = stale_frame(f_frame_here(), n, 0, out);
}

START_TEST(test_forkjoin_stale_frame)
{
    FJ_START(_i);
    f_set_prune(prune_mode(_i));
    long out[3] = { -1, -1, -1 };
    ck_assert_int_eq(f_fork(stale_frame_root, 7, 0, out), F_OK);
    ck_assert_int_eq(fj_parallel(), F_OK);
    ck_assert_msg(out[0] == 1 && out[1] == 1, "a fork (%ld) or a sync (%ld) left an out-of-date "
                                              "frame other than the bottom", out[0], out[1]);
    ck_assert_int_eq(out[2], 7 + 3 + fib_seq(10) + fib_seq(11));
}
END_TEST

/* ---------------------------------------------------------- f_vfork */

static double cubic(double x)
{
    return x * x * x - 2 * x + 1;
}

#define QUAD_EPS 1e-9

static double quad_seq(double a, double b, double fa, double fb, double area)
{
    double m = (a + b) / 2, fm = cubic(m);
    double left = (fa + fm) * (m - a) / 2, right = (fm + fb) * (b - m) / 2;
    if (fabs(left + right - area) < QUAD_EPS)
        return left + right;
    double l = quad_seq(a, m, fa, fm, left);
    return l + quad_seq(m, b, fm, fb, right);
}

/* Adaptive quadrature, paper §2.3: five doubles and a result pointer. */
static void quad(const f_value *v)
{
    double a = v[0].d, b = v[1].d, fa = v[2].d, fb = v[3].d, area = v[4].d;
    double *result = v[5].p;
    double m = (a + b) / 2, fm = cubic(m);
    double left = (fa + fm) * (m - a) / 2, right = (fm + fb) * (b - m) / 2;
    if (fabs(left + right - area) < QUAD_EPS) {
        *result = left + right;
        return;
    }
    double l, r;
    FJ_REQUIRE(f_vfork(quad, "dddddp", a, m, fa, fm, left, (void *)&l) == F_OK);
    FJ_REQUIRE(f_vfork(quad, "dddddp", m, b, fm, fb, right, (void *)&r) == F_OK);
    FJ_REQUIRE(f_join() == F_OK);
    *result = l + r;
}

static struct {
    long sum8;
    long l;
    double d;
    void *p;
    atomic_int empty;
} vout;

static void eight(const f_value *v)
{
    long s = 0;
    for (int k = 0; k < 8; ++k)
        s = s * 10 + v[k].l;
    vout.sum8 = s;
}

static void ldp(const f_value *v)
{
    vout.l = v[0].l;
    vout.d = v[1].d;
    vout.p = v[2].p;
}

static void no_args(const f_value *v)
{
    atomic_fetch_add(&vout.empty, 1);
}

static void vfork_root(const f_value *v)
{
    double *q = v[0].p;
    FJ_REQUIRE(f_vfork(eight, "llllllll", 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L) == F_OK);
    FJ_REQUIRE(f_vfork(no_args, "") == F_OK);
    FJ_REQUIRE(f_vfork(quad, "dddddp", -1.0, 2.0, cubic(-1.0), cubic(2.0), 0.0, (void *)q) ==
               F_OK);
    FJ_REQUIRE(f_join() == F_OK);
    FJ_REQUIRE(vout.sum8 == 12345678);
}

START_TEST(test_forkjoin_vfork)
{
    FJ_START(_i);
    f_set_prune(prune_mode(_i));
    memset(&vout, 0, sizeof vout);
    double q = 0;
    int dummy;
    ck_assert_int_eq(f_vfork(vfork_root, "p", (void *)&q), F_OK);
    ck_assert_int_eq(f_vfork(ldp, "ldp", -7L, 2.5, (void *)&dummy), F_OK);
    ck_assert_int_eq(f_vfork(no_args, ""), F_OK);
    ck_assert_int_eq(fj_parallel(), F_OK);
    ck_assert_int_eq(vout.sum8, 12345678);
    ck_assert_int_eq(vout.l, -7);
    ck_assert(vout.d == 2.5);
    ck_assert_ptr_eq(vout.p, &dummy);
    ck_assert_int_eq(atomic_load(&vout.empty), 2);
    double expect = quad_seq(-1.0, 2.0, cubic(-1.0), cubic(2.0), 0.0);
    ck_assert(memcmp(&q, &expect, sizeof q) == 0);
}
END_TEST

/* ------------------------------------------------- forks never joined */

#define LOOSE 64
static atomic_int loose[4][LOOSE];

static void loose_mark(long group, long k, void *unused)
{
    fj_spin(50);
    atomic_fetch_add(&loose[group][k], 1);
}

/* A sync that names another function than its fork did still returns its
 * fork's result (f_fork(3)): the name only lets the fast path call the
 * child directly.  The named function never runs. */
static atomic_int misnamed_calls;

static long misnamed(f_frame fr, long unused, long unused2, void *unused3)
{
    atomic_fetch_add(&misnamed_calls, 1);
    return -1000;
}

static void fib_misnamed_root(long n, long unused, void *out)
{
    f_frame fr = f_frame_here();
    *(long *)out = fib_long(fr, n, 1, NULL);
}

START_TEST(test_forkjoin_sync_names_another_function)
{
    FJ_START(_i);
    f_set_prune(prune_mode(_i));
    long r = -1;
    atomic_store(&misnamed_calls, 0);
    ck_assert_int_eq(f_fork(fib_misnamed_root, 18, 0, &r), F_OK);
    ck_assert_int_eq(fj_parallel(), F_OK);
    ck_assert_int_eq(r, fib_seq(18));
    ck_assert_int_eq(atomic_load(&misnamed_calls), 0);
}
END_TEST

/* The pruning threshold does not prune a typed fork (f_fork(3)): here, with
 * threshold 1 and two children queued, it is pushed, and its sync calls the
 * child, which leaves untyped children unjoined (pushed, with pruning
 * turned off inside it): they finish by its parent's next join, and the
 * sync gets the child's result. */
static void set_flag_late(long v, long unused, void *flag)
{
    fj_spin(20000);
    atomic_store((atomic_long *)flag, v);
}

static long leaves_children(f_frame fr, long v, long unused, void *flags)
{
    atomic_long *flag = flags;
    f_set_prune(0);
    FJ_REQUIRE(f_fork(set_flag_late, 1, 0, &flag[0]) == F_OK);
    FJ_REQUIRE(f_fork(set_flag_late, 1, 0, &flag[1]) == F_OK);
    f_set_prune(1);
    return v;
}

static void typed_parent_of_leaver(long unused, long unused2, void *flags)
{
    f_frame fr = f_frame_here();
    atomic_long *flag = flags;
    f_set_prune(1);
    FJ_REQUIRE(f_fork(set_flag_late, 1, 0, &flag[2]) == F_OK);
    FJ_REQUIRE(f_fork(set_flag_late, 1, 0, &flag[3]) == F_OK);
    FJ_REQUIRE(f_fork_long(&fr, leaves_children, 5, 0, flags) == F_OK);    /* pushed, not pruned */
    long v = f_sync_long(&fr, leaves_children);
    atomic_store(&flag[4], v);
    FJ_REQUIRE(f_join() == F_OK);
    atomic_store(&flag[5], atomic_load(&flag[0]) + atomic_load(&flag[1]));
}

START_TEST(test_forkjoin_typed_not_pruned_leaves_children)
{
    FJ_START(_i);
    atomic_long flag[6];
    for (int k = 0; k < 6; ++k)
        atomic_init(&flag[k], 0);
    ck_assert_int_eq(f_fork(typed_parent_of_leaver, 0, 0, flag), F_OK);
    ck_assert_int_eq(fj_parallel(), F_OK);
    ck_assert_int_eq(atomic_load(&flag[4]), 5);
    ck_assert_msg(atomic_load(&flag[5]) == 2, "a typed child's unjoined children had not "
                                             "finished when its parent's join returned");
    ck_assert_int_eq(atomic_load(&flag[2]) + atomic_load(&flag[3]), 2);
    struct f_stats st;
    ck_assert_int_eq(f_get_stats(F_ANY, &st), F_OK);
    ck_assert_uint_eq(st.pruned_forks, 0);
    f_set_prune(F_PRUNE_AUTO);
}
END_TEST

static void loose_forker(long group, long unused, void *unused2)
{
    for (long k = 0; k < LOOSE; ++k)
        FJ_REQUIRE(f_fork(loose_mark, group, k, NULL) == F_OK);
}

static long loose_typed(f_frame fr, long group, long unused, void *unused2)
{
    loose_forker(group, 0, NULL);
    return 7;
}

static void loose_root(long unused, long unused2, void *unused3)
{
    f_frame fr = f_frame_here();
    FJ_REQUIRE(f_fork(loose_forker, 1, 0, NULL) == F_OK);    /* a child that does not join */
    FJ_REQUIRE(f_fork_long(&fr, loose_typed, 2, 0, NULL) == F_OK);
    FJ_REQUIRE(f_sync_long(&fr, loose_typed) == 7);
    loose_forker(3, 0, NULL);                                 /* and the root itself */
}

/* A filament that returns without joining: its children still run within
 * the same f_parallel, whether it is RTC, a root, a child or a typed child. */
START_TEST(test_forkjoin_no_join)
{
    FJ_START(_i);
    f_set_prune(prune_mode(_i));
    ck_assert_int_eq(f_rtc_thread(F_ANY, loose_forker, 0, 0, NULL), F_OK);
    ck_assert_int_eq(f_fork(loose_root, 0, 0, NULL), F_OK);
    ck_assert_int_eq(fj_parallel(), F_OK);
    for (int g = 0; g < 4; ++g)
        for (int k = 0; k < LOOSE; ++k)
            ck_assert_msg(atomic_load(&loose[g][k]) == 1, "group %d child %d ran %d times", g, k,
                          atomic_load(&loose[g][k]));
}
END_TEST

/* A tree of typed filaments each of which forks one untyped child that it
 * never joins: every one of those must run, wherever its parent ran
 * (stolen, or leapfrogged by a server waiting for a stolen child). */
#define TN_DEPTH 11
static atomic_long tn_marks;

static void tn_mark(long unused, long unused2, void *unused3)
{
    atomic_fetch_add(&tn_marks, 1);
}

static long tn(f_frame fr, long depth, long unused, void *unused2)
{
    FJ_REQUIRE(f_fork(tn_mark, 0, 0, NULL) == F_OK);
    if (depth == 0)
        return 1;
    FJ_REQUIRE(f_fork_long(&fr, tn, depth - 1, 0, NULL) == F_OK);
    long b = tn(fr, depth - 1, 0, NULL);
    return f_sync_long(&fr, tn) + b + 1;
}

static void tn_root(long depth, long unused, void *out)
{
    f_frame fr = f_frame_here();
    *(long *)out = tn(fr, depth, 0, NULL);
}

START_TEST(test_forkjoin_no_join_in_typed_tree)
{
    FJ_START(_i);
    f_set_prune(fj_variant(_i) % 2 ? 0 : F_PRUNE_AUTO);
    long nodes = (1L << (TN_DEPTH + 1)) - 1;
    for (int run = 0; run < 4; ++run) {
        long r = -1;
        atomic_store(&tn_marks, 0);
        ck_assert_int_eq(f_fork(tn_root, TN_DEPTH, 0, &r), F_OK);
        ck_assert_int_eq(fj_parallel(), F_OK);
        ck_assert_int_eq(r, nodes);
        ck_assert_msg(atomic_load(&tn_marks) == nodes, "run %d: %ld of %ld unjoined children ran",
                      run, atomic_load(&tn_marks), nodes);
    }
}
END_TEST

/* A join that waits for a stolen child counts the wait as idle time
 * (f_get_stats(3)): the child sleeps SLEEPY_MS on its thief while the
 * parent's server has nothing else to run.  The parent forks empty
 * siblings until the child has been stolen (each fork answers a standing
 * request for work), for at most a second; on one server, or if no thief
 * came, there is nothing to check. */
#define SLEEPY_MS 40
static atomic_int sleepy_on;    /* the sleepy child's server + 1; 0 before it runs */

static void sleepy_child(long unused, long unused2, void *unused3)
{
    atomic_store(&sleepy_on, f_my_server() + 1);
    struct timespec t = { 0, SLEEPY_MS * 1000000L };
    while (nanosleep(&t, &t) != 0)
        ;
}

static void empty_child(long unused, long unused2, void *unused3)
{
}

struct sleepy_root_out {
    int server;     /* where the parent ran */
    int stolen;     /* 1 if the sleepy child ran elsewhere before the join */
};

static void sleepy_root(long unused, long unused2, void *out)
{
    struct sleepy_root_out *o = out;
    struct timespec start, now;
    o->server = f_my_server();
    clock_gettime(CLOCK_MONOTONIC, &start);
    FJ_REQUIRE(f_fork(sleepy_child, 0, 0, NULL) == F_OK);
    do {
        FJ_REQUIRE(f_fork(empty_child, 0, 0, NULL) == F_OK);
        sched_yield();
        clock_gettime(CLOCK_MONOTONIC, &now);
    } while (atomic_load(&sleepy_on) == 0 && now.tv_sec - start.tv_sec < 2);
    o->stolen = atomic_load(&sleepy_on) != 0 && atomic_load(&sleepy_on) != o->server + 1;
    FJ_REQUIRE(f_join() == F_OK);
}

START_TEST(test_forkjoin_join_wait_is_idle)
{
    FJ_START(_i);
    struct sleepy_root_out out = { -1, 0 };
    struct f_stats st;
    atomic_store(&sleepy_on, 0);
    f_set_prune(0);
    ck_assert_int_eq(f_reset_stats(), F_OK);
    ck_assert_int_eq(f_fork(sleepy_root, 0, 0, &out), F_OK);
    ck_assert_int_eq(fj_parallel(), F_OK);
    ck_assert_int_ne(atomic_load(&sleepy_on), 0);
    if (!out.stolen)
        return;
    ck_assert_int_eq(f_get_stats(out.server, &st), F_OK);
    ck_assert_msg(st.idle_ns >= SLEEPY_MS / 2 * 1000000UL,
                  "server %d waited for a stolen child of %d ms: idle %lu ns", out.server,
                  SLEEPY_MS, st.idle_ns);
}
END_TEST

/*
 * A loop of forks, then one join, as OpenMP tasks and TBB task groups are
 * written: the forker forks no more once it joins, so its join must answer
 * the thieves' requests (f_fork(3)).  The forker runs as an RTC filament on
 * server 0 while an RTC filament on each other server holds it until every
 * child is forked, so that the thieves ask only once the forker is in its
 * join, pruning off.  Each child that runs on the forker's server sleeps
 * 20 ms while no child has run elsewhere (for two seconds after the start
 * at most), which gives the thieves over a second to ask and be answered:
 * a join that never publishes lets none of them take a child.
 */
#define LOOP_CHILDREN 64
static atomic_int loop_forked, loop_elsewhere;
static struct timespec loop_start;

static int loop_waited_too_long(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec - loop_start.tv_sec > 2;
}

static void loop_child(long forker, long unused, void *unused2)
{
    struct timespec t = { 0, 20 * 1000000L };
    if (f_my_server() != forker)
        atomic_fetch_add(&loop_elsewhere, 1);
    else if (f_num_servers() > 1 && atomic_load(&loop_elsewhere) == 0 && !loop_waited_too_long())
        nanosleep(&t, NULL);
}

static void loop_forker(long unused, long unused2, void *unused3)
{
    for (long k = 0; k < LOOP_CHILDREN; ++k)
        FJ_REQUIRE(f_fork(loop_child, f_my_server(), 0, NULL) == F_OK);
    atomic_store(&loop_forked, 1);
    FJ_REQUIRE(f_join() == F_OK);
}

static void loop_holder(long unused, long unused2, void *unused3)
{
    while (atomic_load(&loop_forked) == 0 && !loop_waited_too_long())
        sched_yield();
}

START_TEST(test_forkjoin_loop_join_answers_thieves)
{
    FJ_START(_i);
    int servers = f_num_servers();
    atomic_store(&loop_forked, 0);
    atomic_store(&loop_elsewhere, 0);
    clock_gettime(CLOCK_MONOTONIC, &loop_start);
    f_set_prune(0);
    ck_assert_int_eq(f_rtc_thread(0, loop_forker, 0, 0, NULL), F_OK);
    for (int k = 1; k < servers; ++k)
        ck_assert_int_eq(f_rtc_thread(k, loop_holder, 0, 0, NULL), F_OK);
    ck_assert_int_eq(fj_parallel(), F_OK);
    ck_assert_int_eq(atomic_load(&loop_forked), 1);
    if (servers > 1)
        ck_assert_msg(atomic_load(&loop_elsewhere) > 0,
                      "no child of a loop of %d forks ran off the forker's server",
                      LOOP_CHILDREN);
}
END_TEST

/* ------------------------------------------------------------- limits */

/* ThreadSanitizer keeps a shadow stack of 64K frames per thread, which a
 * chain of 100000 nested calls overflows (a crash in its runtime). */
#if defined(__SANITIZE_THREAD__)
#define CHAIN 10000
#else
#define CHAIN 100000
#endif

/* Each level forks one child and joins it. */
static void chain(long n, long unused, void *out)
{
    long r = -1;
    if (n == 0) {
        *(long *)out = 0;
        return;
    }
    FJ_REQUIRE(f_fork(chain, n - 1, 0, &r) == F_OK);
    FJ_REQUIRE(f_join() == F_OK);
    *(long *)out = r + 1;
}

static long chain_long(f_frame fr, long n, long unused, void *unused2)
{
    if (n == 0)
        return 0;
    FJ_REQUIRE(f_fork_long(&fr, chain_long, n - 1, 0, NULL) == F_OK);
    return f_sync_long(&fr, chain_long) + 1;
}

static void chain_long_root(long n, long unused, void *out)
{
    f_frame fr = f_frame_here();
    *(long *)out = chain_long(fr, n, 0, NULL);
}

START_TEST(test_forkjoin_chain_deep)
{
    FJ_START(_i);
    f_set_prune(prune_mode(_i));
    long r = -1, t = -1;
    ck_assert_int_eq(f_fork(chain, CHAIN, 0, &r), F_OK);
    ck_assert_int_eq(f_fork(chain_long_root, CHAIN, 0, &t), F_OK);
    ck_assert_int_eq(fj_parallel(), F_OK);
    ck_assert_int_eq(r, CHAIN);
    ck_assert_int_eq(t, CHAIN);
}
END_TEST

/* f_get_stats(3): every fork counts, typed and untyped, and so does a root
 * forked by the main thread, from its creation, on the server it goes to.
 * With pruning off, every fork is also a filament run. */
START_TEST(test_forkjoin_stats_count_every_fork)
{
    FJ_START(_i);
    f_set_prune(0);
    long r = -1, t = -1;
    struct f_stats st;
    ck_assert_int_eq(f_fork(chain, 50, 0, &r), F_OK);
    ck_assert_int_eq(f_fork(chain_long_root, 30, 0, &t), F_OK);
    ck_assert_int_eq(f_get_stats(F_ANY, &st), F_OK);
    ck_assert_uint_eq(st.forks, 2);    /* the roots, not run yet */
    ck_assert_int_eq(fj_parallel(), F_OK);
    ck_assert_int_eq(r, 50);
    ck_assert_int_eq(t, 30);
    ck_assert_int_eq(f_get_stats(F_ANY, &st), F_OK);
    ck_assert_uint_eq(st.forks, 2 + 50 + 30);
    ck_assert_uint_eq(st.pruned_forks, 0);
    ck_assert_uint_eq(st.filaments_run, 2 + 50 + 30);
    f_set_prune(F_PRUNE_AUTO);
}
END_TEST

/* More children than the deque holds: the forks past the cap are calls. */
#define WIDE ((long)(FI_DEQUE_SLOTS + FI_DEQUE_SLOTS / 2))
static atomic_uchar wide_ran[WIDE];

static void wide_child(long k, long unused, void *unused2)
{
    atomic_fetch_add(&wide_ran[k], 1);
}

static void wide_root(long unused, long unused2, void *unused3)
{
    for (long k = 0; k < WIDE; ++k)
        FJ_REQUIRE(f_fork(wide_child, k, 0, NULL) == F_OK);
    FJ_REQUIRE(f_join() == F_OK);
    for (long k = 0; k < WIDE; ++k)
        FJ_REQUIRE(atomic_load(&wide_ran[k]) == 1);
}

START_TEST(test_forkjoin_wider_than_deque)
{
    FJ_START(_i);
    f_set_prune(fj_variant(_i) % 2 ? 0 : F_PRUNE_AUTO);
    ck_assert_int_eq(f_fork(wide_root, 0, 0, NULL), F_OK);
    ck_assert_int_eq(fj_parallel(), F_OK);
    for (long k = 0; k < WIDE; ++k)
        FJ_REQUIRE(atomic_load(&wide_ran[k]) == 1);
}
END_TEST

/* Every server's deque holds FI_DEQUE_SLOTS roots; one more is F_ENOMEM
 * and runs nothing. */
static atomic_long roots_ran;

static void count_root(long unused, long unused2, void *unused3)
{
    atomic_fetch_add(&roots_ran, 1);
}

START_TEST(test_forkjoin_roots_fill_deques)
{
    FJ_START(_i);
    long n = (long)FI_DEQUE_SLOTS * f_num_servers();
    for (long k = 0; k < n; ++k)
        FJ_REQUIRE(f_fork(count_root, 0, 0, NULL) == F_OK);
    ck_assert_int_eq(f_fork(count_root, 0, 0, NULL), F_ENOMEM);
    ck_assert_int_eq(f_vfork(no_args, ""), F_ENOMEM);
    ck_assert_int_eq(fj_parallel(), F_OK);
    ck_assert_int_eq(atomic_load(&roots_ran), n);
    ck_assert_int_eq(atomic_load(&vout.empty), 0);
    /* The deques are empty again. */
    ck_assert_int_eq(f_fork(count_root, 0, 0, NULL), F_OK);
    ck_assert_int_eq(fj_parallel(), F_OK);
    ck_assert_int_eq(atomic_load(&roots_ran), n + 1);
}
END_TEST

/* With the deque full, a typed fork is pruned and keeps its result for its
 * sync; an untyped join in between must not lose it, and moves it into a
 * slot of its own (F_KIND_DONE_).  A sync that names no function (NULL)
 * still gets its fork's result, from the library. */
static void noop(long unused, long unused2, void *unused3)
{
}

static void fill_deque(void)
{
    for (long k = 0; k < (long)FI_DEQUE_SLOTS; ++k)
        FJ_REQUIRE(f_fork(noop, 0, 0, NULL) == F_OK);
}

enum { FULL_JOIN_FIRST = 1, FULL_SYNC_NULL = 2 };

static void full_typed(long mode, long unused, void *out)
{
    f_frame fr = f_frame_here();
    int by_name = !(mode & FULL_SYNC_NULL);
    fill_deque();
    FJ_REQUIRE(f_fork_long(&fr, ret, 42, 0, NULL) == F_OK);
    FJ_REQUIRE(f_fork_double(&fr, half, 3, 0, NULL) == F_OK);
    if (mode & FULL_JOIN_FIRST)
        FJ_REQUIRE(f_join() == F_OK);
    double d = f_sync_double(&fr, by_name ? half : NULL);
    long l = f_sync_long(&fr, by_name ? ret : NULL);
    FJ_REQUIRE(f_join() == F_OK);
    ((double *)out)[0] = d;
    ((double *)out)[1] = (double)l;
}

START_TEST(test_forkjoin_full_deque_typed)
{
    FJ_START(_i);
    f_set_prune(0);
    double out[2] = { -1, -1 };
    ck_assert_int_eq(f_fork(full_typed, 0, 0, out), F_OK);
    ck_assert_int_eq(fj_parallel(), F_OK);
    ck_assert(out[0] == 1.5);
    ck_assert(out[1] == 42.0);
}
END_TEST

START_TEST(test_forkjoin_full_deque_typed_join_first)
{
    FJ_START(_i);
    f_set_prune(0);
    for (long mode = FULL_JOIN_FIRST; mode <= (FULL_JOIN_FIRST | FULL_SYNC_NULL);
         mode += FULL_SYNC_NULL) {
        double out[2] = { -1, -1 };
        ck_assert_int_eq(f_fork(full_typed, mode, 0, out), F_OK);
        ck_assert_int_eq(fj_parallel(), F_OK);
        ck_assert_msg(out[0] == 1.5 && out[1] == 42.0,
                      "pruned typed results lost by a join (mode %ld): sync_double %g (1.5), "
                      "sync_long %g (42)",
                      mode, out[0], out[1]);
    }
}
END_TEST

/* ------------------------------------------- small deques (FILAMENTS_DEQUE) */

/* A variant's deque: 2, 3, 5 or 8 slots per server; its pruning mode turns
 * with the next four variants. */
static const char *small_deque(int i)
{
    static const char *slots[] = { "2", "3", "5", "8" };
    return slots[fj_variant(i) % 4];
}

static long small_deque_prune(int i)
{
    return prune_modes[(fj_variant(i) / 4 + fj_variant(i)) % 4];
}

/* Typed fib, whose every fork must succeed, its syncs naming their fork's
 * function or not: in a deque of a few slots most forks find it full, and
 * their children run as calls whose values wait for their syncs, nested as
 * deep as the recursion (a child run so forks into a full deque too); and
 * the typed and untyped forks of `mixed`. */
START_TEST(test_forkjoin_small_deque_typed)
{
    ck_assert_int_eq(setenv("FILAMENTS_DEQUE", small_deque(_i), 1), 0);
    FJ_START(_i);
    f_set_prune(small_deque_prune(_i));
    for (long misname = 0; misname <= 1; ++misname)
        for (long n = 0; n <= 22; ++n) {
            long r = -1;
            ck_assert_int_eq(f_run_long(fib_long, n, misname, NULL, &r), F_OK);
            ck_assert_msg(r == fib_seq(n), "FILAMENTS_DEQUE=%s: fib(%ld) is %ld, not %ld",
                          small_deque(_i), n, r, fib_seq(n));
        }
    for (long k = 0; k < ITEMS; ++k)
        items[k] = k * 3;
    long m = -1;
    ck_assert_int_eq(f_run_long(mixed, 20, 0, NULL, &m), F_OK);
    ck_assert_int_eq(m, mixed_seq(20));
    struct f_stats st;
    ck_assert_int_eq(f_get_stats(F_ANY, &st), F_OK);
    ck_assert_uint_gt(st.pruned_forks, 0);    /* the calls in a full deque are counted */
}
END_TEST

/* f_get_stats(3) counts each typed fork once, wherever its slot goes: a
 * typed fork counts as its slot is popped, by its sync inline or by the
 * library (a sync that names another function: every one of those; a
 * stolen slot; a full deque's kept values, which count as pruned), and an
 * untyped one (the root) as it is pushed.  Typed fib(n) forks once per
 * call with n >= 2: fib(n + 1) - 1 forks. */
START_TEST(test_forkjoin_stats_typed_forks_counted_once)
{
    ck_assert_int_eq(setenv("FILAMENTS_DEQUE", small_deque(_i), 1), 0);
    FJ_START(_i);
    f_set_prune(small_deque_prune(_i));
    for (long misname = 0; misname <= 1; ++misname) {
        unsigned long forks = 0;
        struct f_stats st, one, sum = { 0 };
        ck_assert_int_eq(f_reset_stats(), F_OK);
        for (long n = 0; n <= 20; n += 4) {
            long r = -1;
            ck_assert_int_eq(f_run_long(fib_long, n, misname, NULL, &r), F_OK);
            ck_assert_int_eq(r, fib_seq(n));
            forks += 1 + (unsigned long)(fib_seq(n + 1) - 1);
        }
        ck_assert_int_eq(f_get_stats(F_ANY, &st), F_OK);
        ck_assert_msg(st.forks == forks, "FILAMENTS_DEQUE=%s, misname %ld: %lu forks, not %lu",
                      small_deque(_i), misname, st.forks, forks);
        ck_assert_uint_eq(st.filaments_run, st.forks - st.pruned_forks);
        for (int k = 0; k < f_num_servers(); ++k) {
            ck_assert_int_eq(f_get_stats(k, &one), F_OK);
            sum.forks += one.forks;
            sum.filaments_run += one.filaments_run;
        }
        ck_assert_uint_eq(sum.forks, st.forks);
        ck_assert_uint_eq(sum.filaments_run, st.filaments_run);
    }
}
END_TEST

/* The same untyped: fib and sum_range, each fork into a deque of a few
 * slots that is mostly full, so that most children run as calls at once,
 * and the joins still find their values. */
START_TEST(test_forkjoin_small_deque_untyped)
{
    ck_assert_int_eq(setenv("FILAMENTS_DEQUE", small_deque(_i), 1), 0);
    FJ_START(_i);
    f_set_prune(small_deque_prune(_i));
    for (long n = 0; n <= 22; n += 2) {
        long r = -1, s = -1;
        ck_assert_int_eq(f_fork(fib, n, 0, &r), F_OK);
        ck_assert_int_eq(f_fork(sum_range, 0, 1000 * n, &s), F_OK);
        ck_assert_int_eq(fj_parallel(), F_OK);
        ck_assert_msg(r == fib_seq(n) && s == sum_seq(0, 1000 * n),
                      "FILAMENTS_DEQUE=%s: fib(%ld) %ld, not %ld; sum %ld, not %ld",
                      small_deque(_i), n, r, fib_seq(n), s, sum_seq(0, 1000 * n));
    }
    struct f_stats st;
    ck_assert_int_eq(f_get_stats(F_ANY, &st), F_OK);
    ck_assert_uint_gt(st.pruned_forks, 0);    /* the calls in a full deque are counted */
}
END_TEST

/* Values that a typed function holds across forks that the library takes
 * (a deque of 2 to 8 slots: most forks find it full; new peaks; thieves'
 * requests): on x86-64 such a fork enters the library without a call's
 * clobbers (f_fork_typed_asked_), so that the compiler keeps values in the
 * registers that a callee may clobber.  Six integers and two doubles,
 * loaded from volatile memory before the fork, so that the compiler must
 * keep them rather than load or compute them again, are compared after
 * it with the same memory; a long double beside them, on the x87 stack.
 * Few enough that gcc 12 keeps some in those registers (with twelve it
 * kept them all on the stack, and a stub that clobbered them passed). */
static volatile long kept_ints[6];
static volatile double kept_doubles[2];
static atomic_long kept_wrong;

static long keep_across_fork(f_frame fr, long n, long j, void *arg)
{
    if (n < 2)
        return n;
    long a0 = kept_ints[0] + n, a1 = kept_ints[1] + n, a2 = kept_ints[2] + n;
    long a3 = kept_ints[3] + n, a4 = kept_ints[4] + n, a5 = kept_ints[5] + n;
    double d0 = kept_doubles[0] + n, d1 = kept_doubles[1] + n;
    long double x = (long double)kept_doubles[0] * n;
    f_fork_long(&fr, keep_across_fork, n - 1, j, arg);
    long wrong = (a0 != kept_ints[0] + n) + (a1 != kept_ints[1] + n) + (a2 != kept_ints[2] + n) +
                 (a3 != kept_ints[3] + n) + (a4 != kept_ints[4] + n) +
                 (a5 != kept_ints[5] + n) + (d0 != kept_doubles[0] + n) +
                 (d1 != kept_doubles[1] + n) + (x != (long double)kept_doubles[0] * n);
    if (wrong != 0)
        atomic_fetch_add(&kept_wrong, wrong);
    long b = keep_across_fork(fr, n - 2, j, arg);
    return f_sync_long(&fr, keep_across_fork) + b;
}

START_TEST(test_forkjoin_values_kept_across_library_fork)
{
    ck_assert_int_eq(setenv("FILAMENTS_DEQUE", small_deque(_i), 1), 0);
    FJ_START(_i);
    for (int k = 0; k < 6; ++k)
        kept_ints[k] = 1000 * k + 17;
    for (int k = 0; k < 2; ++k)
        kept_doubles[k] = 0.5 + k;
    atomic_store(&kept_wrong, 0);
    for (long n = 0; n <= 20; ++n) {
        long r = -1;
        ck_assert_int_eq(f_run_long(keep_across_fork, n, 0, NULL, &r), F_OK);
        ck_assert_msg(r == fib_seq(n), "FILAMENTS_DEQUE=%s: fib(%ld) is %ld, not %ld",
                      small_deque(_i), n, r, fib_seq(n));
    }
    ck_assert_msg(atomic_load(&kept_wrong) == 0, "%ld values changed across forks",
                  (long)atomic_load(&kept_wrong));
    struct f_stats st;
    ck_assert_int_eq(f_get_stats(F_ANY, &st), F_OK);
    ck_assert_uint_gt(st.pruned_forks, 0);    /* forks that the library took */
}
END_TEST

/* A task's arguments in the slot's words, put there member by member
 * (f_args_put_): members of 3 and 5 bytes, which are copied, the second
 * across two words; a short, a _Bool and a float, which are shifted into
 * place.  Each child checks what it got against its depth; the values
 * sum the nodes, forked, stolen and run as roots. */
struct three {
    unsigned char b[3];
};
struct five {
    unsigned char b[5];
};

static struct three three_of(long depth)
{
    struct three t = { { (unsigned char)depth, 0xa5, (unsigned char)~depth } };
    return t;
}

static struct five five_of(long depth)
{
    struct five f = { { 0x5a, (unsigned char)depth, 0xff, 0x01, (unsigned char)(depth * 3) } };
    return f;
}

F_TASK_6(long, odd_members, long, depth, struct three, t, short, s, struct five, f, _Bool, odd,
         float, x)
{
    struct three te = three_of(depth);
    struct five fe = five_of(depth);
    FJ_REQUIRE(memcmp(&t, &te, sizeof t) == 0 && memcmp(&f, &fe, sizeof f) == 0 &&
               s == (short)(-depth - 300) && odd == (depth % 2 == 1) && x == depth / 4.0f);
    if (depth == 0)
        return 1;
    long d = depth - 1, a, b;
    F_FORK_LONG(&fr, odd_members, d, three_of(d), (short)(-d - 300), five_of(d), d % 2 == 1,
                d / 4.0f);
    b = F_CALL(odd_members, fr, d, three_of(d), (short)(-d - 300), five_of(d), d % 2 == 1,
               d / 4.0f);
    a = f_sync_long(&fr, odd_members);
    return a + b + 1;
}

START_TEST(test_forkjoin_task_odd_members)
{
    FJ_START(_i);
    f_set_prune(prune_mode(_i));
    long r = -1, depth = 14;
    ck_assert_int_eq(F_RUN(odd_members, &r, depth, three_of(depth), (short)(-depth - 300),
                           five_of(depth), depth % 2 == 1, depth / 4.0f),
                     F_OK);
    ck_assert_int_eq(r, (1L << (depth + 1)) - 1);
}
END_TEST

/* f_run_long and its kin: a typed function's value from the main thread in
 * one call.  It is a run: roots created before it run in it too, and the
 * library stays ready for the next. */
static atomic_long run_before;

static void mark_before(long v, long unused, void *unused2)
{
    atomic_store(&run_before, v);
}

START_TEST(test_forkjoin_run_typed)
{
    FJ_START(_i);
    f_set_prune(prune_mode(_i));
    for (long k = 0; k < ITEMS; ++k)
        items[k] = (long)(fj_mix((uint64_t)k + 77) % 100000);
    atomic_store(&run_before, 0);
    ck_assert_int_eq(f_fork(mark_before, 7, 0, NULL), F_OK);
    long l = -1;
    ck_assert_int_eq(f_run_long(fib_long, 21, 0, NULL, &l), F_OK);
    ck_assert_int_eq(l, fib_seq(21));
    ck_assert_int_eq(atomic_load(&run_before), 7);
    double d = -1, h = harmonic_seq(0, 20000);
    ck_assert_int_eq(f_run_double(harmonic, 0, 20000, NULL, &d), F_OK);
    ck_assert(memcmp(&d, &h, sizeof h) == 0);
    void *p = NULL;
    ck_assert_int_eq(f_run_ptr(argmax, 0, ITEMS, NULL, &p), F_OK);
    ck_assert_ptr_eq(p, argmax_seq(0, ITEMS));
    ck_assert_int_eq(f_run_long(fib_long, 10, 0, NULL, NULL), F_OK);    /* value not wanted */
    ck_assert_int_eq(f_run_long(NULL, 10, 0, NULL, &l), F_EINVAL);
    ck_assert_int_eq(f_run_double(NULL, 10, 0, NULL, &d), F_EINVAL);
    ck_assert_int_eq(f_run_ptr(NULL, 10, 0, NULL, &p), F_EINVAL);
    ck_assert_int_eq(l, fib_seq(21));    /* a failed call stores nothing */
}
END_TEST

/* From a filament, f_run_long is F_ESTATE, before its F_EINVAL. */
static void run_in_filament(long unused, long unused2, void *out)
{
    long l = -1;
    ((int *)out)[0] = f_run_long(fib_long, 5, 0, NULL, &l);
    ((int *)out)[1] = f_run_long(NULL, 5, 0, NULL, &l);
    ((int *)out)[2] = l == -1;
}

START_TEST(test_forkjoin_run_typed_errors)
{
    long l = -1;
    ck_assert_int_eq(f_run_long(fib_long, 5, 0, NULL, &l), F_ESTATE);    /* before f_initialize */
    ck_assert_int_eq(f_run_long(NULL, 5, 0, NULL, &l), F_ESTATE);
    FJ_START(_i);
    int out[3] = { 0, 0, 0 };
    ck_assert_int_eq(f_fork(run_in_filament, 0, 0, out), F_OK);
    ck_assert_int_eq(fj_parallel(), F_OK);
    ck_assert_int_eq(out[0], F_ESTATE);
    ck_assert_int_eq(out[1], F_ESTATE);
    ck_assert_int_eq(out[2], 1);
    f_finalize();
    ck_assert_int_eq(f_run_double(harmonic, 0, 10, NULL, NULL), F_ESTATE);    /* after */
    ck_assert_int_eq(l, -1);
}
END_TEST

/* ------------------------------------------------------- random trees */

/*
 * A tree from a seed: node `id` has children 5 id + 1 .. 5 id + f, with
 * fan-out f in 0..4 (0..3 below depth 4), down to a depth of 1..12 chosen by
 * the seed; a leaf's value is a hash of (seed, id); a node combines its
 * children's values in order, r = 31 r + v, so a result landing in the
 * wrong place shows.  Each node picks how it evaluates its children:
 * untyped forks and a join, typed forks synced in reverse, f_fork_seq,
 * f_vfork, or typed and untyped mixed; and whether it calls its last
 * child instead of forking it.  Unless the tree allows `joins_in_typed`,
 * a typed child's subtree is all typed forks and syncs, with no f_join.
 */
struct rtree {
    uint64_t seed;
    int depth;
    int joins_in_typed;
};

struct rnode {
    const struct rtree *t;
    uint64_t id;
    long depth;
    long value;
    int typed_only;
};

static uint64_t rhash(const struct rtree *t, uint64_t id, uint64_t salt)
{
    return fj_mix(t->seed ^ fj_mix(id * 8 + salt));
}

static int rfanout(const struct rtree *t, uint64_t id, long depth)
{
    if (depth >= t->depth)
        return 0;
    return (int)(rhash(t, id, 1) % (depth < 4 ? 5 : 4));
}

static long rleaf(const struct rtree *t, uint64_t id)
{
    return (long)(rhash(t, id, 2) % 1000) + 1;
}

/* Kept positive: a value of 0 or less is a result never written. */
static long rcombine(long r, long v)
{
    return (long)(((unsigned long)r * 31u + (unsigned long)v) & 0x3fffffffffffffffu) | 1;
}

static long reval_seq(const struct rtree *t, uint64_t id, long depth)
{
    int f = rfanout(t, id, depth);
    if (f == 0)
        return rleaf(t, id);
    long r = 0;
    for (int k = 0; k < f; ++k)
        r = rcombine(r, reval_seq(t, id * 5 + 1 + (uint64_t)k, depth + 1));
    return r;
}

/* The sequential version that f_fork_seq names. */
static void rnode_seq(long unused, long unused2, void *arg)
{
    struct rnode *n = arg;
    n->value = reval_seq(n->t, n->id, n->depth);
}

static void rnode_run(long unused, long unused2, void *arg);

static long rnode_long(f_frame fr, long unused, long unused2, void *arg)
{
    rnode_run(0, 0, arg);
    return ((struct rnode *)arg)->value;
}

static void rnode_v(const f_value *v)
{
    rnode_run(0, 0, v[0].p);
}

enum { R_UNTYPED, R_TYPED, R_SEQ, R_VFORK, R_MIXED, R_MODES };

static void rnode_run(long unused, long unused2, void *arg)
{
    f_frame fr = f_frame_here();
    struct rnode *n = arg;
    const struct rtree *t = n->t;
    int f = rfanout(t, n->id, n->depth);
    if (f == 0) {
        n->value = rleaf(t, n->id);
        return;
    }
    uint64_t h = rhash(t, n->id, 3);
    int mode = n->typed_only ? R_TYPED : (int)(h % R_MODES);
    int call_last = (int)(h >> 8) & 1;
    struct rnode c[4];
    int typed[4] = { 0 };
    for (int k = 0; k < f; ++k) {
        int m = mode == R_MIXED ? (k % 2 ? R_UNTYPED : R_TYPED) : mode;
        c[k] = (struct rnode){ t, n->id * 5 + 1 + (uint64_t)k, n->depth + 1, -1,
                               n->typed_only || (m == R_TYPED && !t->joins_in_typed) };
        if (call_last && k == f - 1) {
            rnode_run(0, 0, &c[k]);
            continue;
        }
        switch (m) {
        case R_UNTYPED: FJ_REQUIRE(f_fork(rnode_run, 0, 0, &c[k]) == F_OK); break;
        case R_TYPED:
            FJ_REQUIRE(f_fork_long(&fr, rnode_long, 0, 0, &c[k]) == F_OK);
            typed[k] = 1;
            break;
        case R_SEQ: FJ_REQUIRE(f_fork_seq(rnode_run, rnode_seq, 0, 0, &c[k]) == F_OK); break;
        default: FJ_REQUIRE(f_vfork(rnode_v, "p", (void *)&c[k]) == F_OK); break;
        }
    }
    /* Typed children in reverse; their values also land in their frames. */
    for (int k = f - 1; k >= 0; --k) {
        if (typed[k]) {
            long v = f_sync_long(&fr, rnode_long);
            FJ_REQUIRE(v == c[k].value);
        }
    }
    if (mode != R_TYPED)
        FJ_REQUIRE(f_join() == F_OK);
    long r = 0;
    for (int k = 0; k < f; ++k) {
        FJ_REQUIRE(c[k].value > 0);
        r = rcombine(r, c[k].value);
    }
    n->value = r;
}

#define RSEEDS 4
#define RRUNS 4

/* RRUNS runs, each of RSEEDS trees (one root each) under its own pruning
 * mode, against the sequential code. */
static void random_trees(int i, int joins_in_typed, const char *deque_slots)
{
    if (deque_slots != NULL)
        ck_assert_int_eq(setenv("FILAMENTS_DEQUE", deque_slots, 1), 0);
    FJ_START(i);
    for (int run = 0; run < RRUNS; ++run) {
        struct rtree t[RSEEDS];
        struct rnode root[RSEEDS];
        f_set_prune(prune_modes[(fj_variant(i) + run) % 4]);
        for (int s = 0; s < RSEEDS; ++s) {
            uint64_t seed = fj_mix((uint64_t)(fj_variant(i) * RRUNS + run) * RSEEDS + (uint64_t)s);
            t[s] = (struct rtree){ seed, 1 + (int)(seed % 12), joins_in_typed };
            root[s] = (struct rnode){ &t[s], 0, 0, -1, 0 };
            ck_assert_int_eq(f_fork(rnode_run, 0, 0, &root[s]), F_OK);
        }
        ck_assert_int_eq(fj_parallel_within(FJ_SHORT_S), F_OK);
        for (int s = 0; s < RSEEDS; ++s)
            ck_assert_msg(root[s].value == reval_seq(&t[s], 0, 0),
                          "variant %d run %d seed %d: %ld, expected %ld", fj_variant(i), run, s,
                          root[s].value, reval_seq(&t[s], 0, 0));
    }
}

START_TEST(test_forkjoin_random_trees)
{
    random_trees(_i, 0, NULL);
}
END_TEST

/* As above, in deques of a few slots, full at every few forks: 4 to 8,
 * room for the RSEEDS roots even on one server. */
START_TEST(test_forkjoin_random_trees_small_deque)
{
    static const char *slots[] = { "4", "5", "6", "8" };
    random_trees(_i, _i % 2, slots[fj_variant(_i) % 4]);
}
END_TEST

/* As above, but a typed child may fork untyped children and join them. */
START_TEST(test_forkjoin_random_trees_joins_in_typed)
{
    random_trees(_i, 1, NULL);
}
END_TEST

/* -------------------------------------------------------- termination */

#define TERM_RUNS 400
static atomic_int term_loose;

static void term_root(long n, long unused, void *out)
{
    fib(n, 0, out);
    for (int k = 0; k < 4; ++k)    /* and some it never joins */
        FJ_REQUIRE(f_fork(loose_mark, 0, k, NULL) == F_OK);
}

static void term_rtc(long unused, long unused2, void *unused3)
{
    atomic_fetch_add(&term_loose, 1);
}

/* f_parallel returns exactly when all forked work is done: many short
 * runs, each with root trees and unjoined children, checked each time. */
START_TEST(test_forkjoin_termination)
{
    FJ_START(_i);
    f_set_prune(prune_mode(_i));
    for (int run = 0; run < TERM_RUNS; ++run) {
        long r[3] = { -1, -1, -1 };
        for (int k = 0; k < LOOSE; ++k)
            atomic_store(&loose[0][k], 0);
        for (int k = 0; k < 3; ++k)
            FJ_REQUIRE(f_fork(term_root, 6 + (run + k) % 7, 0, &r[k]) == F_OK);
        FJ_REQUIRE(f_rtc_thread(F_ANY, term_rtc, 0, 0, NULL) == F_OK);
        FJ_REQUIRE(f_parallel() == F_OK);
        for (int k = 0; k < 3; ++k)
            FJ_REQUIRE(r[k] == fib_seq(6 + (run + k) % 7));
        for (int k = 0; k < 4; ++k)
            FJ_REQUIRE(atomic_load(&loose[0][k]) == 3);
        FJ_REQUIRE(atomic_load(&term_loose) == run + 1);
    }
}
END_TEST

/* ------------------------------------------------------------- errors */

static atomic_int called;

static void counted(long unused, long unused2, void *unused3)
{
    atomic_fetch_add(&called, 1);
}

static long counted_long(f_frame fr, long unused, long unused2, void *unused3)
{
    atomic_fetch_add(&called, 1);
    return 1;
}

static double counted_double(f_frame fr, long unused, long unused2, void *unused3)
{
    atomic_fetch_add(&called, 1);
    return 1;
}

static void *counted_ptr(f_frame fr, long unused, long unused2, void *unused3)
{
    atomic_fetch_add(&called, 1);
    return &called;
}

static void counted_v(const f_value *v)
{
    atomic_fetch_add(&called, 1);
}

/* Outside a filament a typed fork runs its child at once, as a call, and
 * its sync returns the value (f_fork(3)): `outside` counts those calls. */
static atomic_int outside;

static long outside_long(f_frame fr, long i, long unused, void *unused2)
{
    atomic_fetch_add(&outside, 1);
    if (i > 0) {    /* a nested fork, outside too */
        FJ_REQUIRE(f_fork_long(&fr, outside_long, i - 1, 0, NULL) == F_OK);
        return f_sync_long(&fr, outside_long) + i;
    }
    return 0;
}

static double outside_double(f_frame fr, long i, long unused, void *unused2)
{
    atomic_fetch_add(&outside, 1);
    return 0.5 * (double)i;
}

static void *outside_ptr(f_frame fr, long unused, long unused2, void *p)
{
    atomic_fetch_add(&outside, 1);
    return p;
}

/* Every fork and join a thread that is not a filament may make, or not. */
static void not_a_filament(int state)
{
    f_frame fr = f_frame_here();
    atomic_store(&outside, 0);
    ck_assert_int_eq(f_join(), F_ESTATE);
    ck_assert_int_eq((f_join)(), F_ESTATE);
    ck_assert_int_eq(f_fork_long(&fr, outside_long, 4, 0, NULL), F_OK);
    ck_assert_int_eq(f_fork_double(&fr, outside_double, 3, 0, NULL), F_OK);
    ck_assert_int_eq(f_fork_ptr(&fr, outside_ptr, 0, 0, &outside), F_OK);
    ck_assert_int_eq((f_fork_long)(&fr, outside_long, 2, 0, NULL), F_OK);
    ck_assert_int_eq(f_fork_long_seq(&fr, outside_long, outside_long, 1, 0, NULL), F_OK);
    ck_assert_int_eq(atomic_load(&outside), 5 + 1 + 1 + 3 + 2);    /* every call, at its fork */
    ck_assert_int_eq(f_sync_long(&fr, outside_long), 1);
    ck_assert_int_eq((f_sync_long)(&fr, outside_long), 3);
    ck_assert_ptr_eq(f_sync_ptr(&fr, outside_ptr), &outside);
    ck_assert(f_sync_double(&fr, outside_double) == 1.5);
    ck_assert_int_eq(f_sync_long(&fr, outside_long), 10);
    ck_assert_int_eq(f_sync_long(&fr, outside_long), 0);    /* none left */
    ck_assert_int_eq(f_fork_long(NULL, outside_long, 0, 0, NULL), F_EINVAL);
    ck_assert_int_eq(f_fork_long(&fr, NULL, 0, 0, NULL), F_EINVAL);
    ck_assert_int_eq(f_fork_long_seq(&fr, outside_long, NULL, 0, 0, NULL), F_EINVAL);
    if (state == F_ESTATE) {    /* no library, or a run under way: nothing at all */
        ck_assert_int_eq(f_fork(counted, 0, 0, NULL), F_ESTATE);
        ck_assert_int_eq((f_fork)(counted, 0, 0, NULL), F_ESTATE);
        ck_assert_int_eq(f_fork(NULL, 0, 0, NULL), F_ESTATE);
        ck_assert_int_eq(f_fork_seq(counted, counted, 0, 0, NULL), F_ESTATE);
        ck_assert_int_eq(f_fork_seq(counted, NULL, 0, 0, NULL), F_ESTATE);
        ck_assert_int_eq(f_vfork(counted_v, "l", 1L), F_ESTATE);
        ck_assert_int_eq(f_vfork(NULL, "x"), F_ESTATE);
    }
}

START_TEST(test_forkjoin_errors_before_initialize)
{
    not_a_filament(F_ESTATE);
    FJ_START(_i);
    ck_assert_int_eq(fj_parallel(), F_OK);
    ck_assert_int_eq(atomic_load(&called), 0);
}
END_TEST

START_TEST(test_forkjoin_errors_after_finalize)
{
    FJ_START(_i);
    ck_assert_int_eq(f_fork(counted, 0, 0, NULL), F_OK);          /* roots never run: */
    ck_assert_int_eq(f_vfork(counted_v, "l", 1L), F_OK);          /* discarded */
    f_finalize();
    not_a_filament(F_ESTATE);
    FJ_START(_i);
    ck_assert_int_eq(fj_parallel(), F_OK);
    ck_assert_int_eq(atomic_load(&called), 0);
}
END_TEST

START_TEST(test_forkjoin_errors_from_main)
{
    FJ_START(_i);
    not_a_filament(F_OK);
    ck_assert_int_eq(f_fork(NULL, 0, 0, NULL), F_EINVAL);
    ck_assert_int_eq((f_fork)(NULL, 0, 0, NULL), F_EINVAL);
    ck_assert_int_eq(f_fork_seq(NULL, counted, 0, 0, NULL), F_EINVAL);
    ck_assert_int_eq(f_fork_seq(counted, NULL, 0, 0, NULL), F_EINVAL);
    ck_assert_int_eq(f_vfork(NULL, "l", 1L), F_EINVAL);
    ck_assert_int_eq(f_vfork(counted_v, NULL), F_EINVAL);
    ck_assert_int_eq(f_vfork(counted_v, "x"), F_EINVAL);
    ck_assert_int_eq(f_vfork(counted_v, "lldpx", 1L, 2L, 3.0, NULL), F_EINVAL);
    ck_assert_int_eq(f_vfork(counted_v, "lllllllll", 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L),
                     F_EINVAL);
    ck_assert_int_eq(fj_parallel(), F_OK);
    ck_assert_int_eq(atomic_load(&called), 0);
    not_a_filament(F_OK);    /* between runs, as before */
}
END_TEST

static atomic_int filament_errors;

#define EXPECT(x)                                                                              \
    do {                                                                                       \
        if (!(x)) {                                                                            \
            atomic_fetch_add(&filament_errors, 1);                                             \
            fj_fail(__FILE__, __LINE__, #x);                                                   \
        }                                                                                      \
    } while (0)

static void errors_in_filament(long unused, long unused2, void *unused3)
{
    f_frame fr = f_frame_here();
    EXPECT(f_fork(NULL, 0, 0, NULL) == F_EINVAL);
    EXPECT((f_fork)(NULL, 0, 0, NULL) == F_EINVAL);
    EXPECT(f_fork_long(&fr, NULL, 0, 0, NULL) == F_EINVAL);
    EXPECT(f_fork_double(&fr, NULL, 0, 0, NULL) == F_EINVAL);
    EXPECT(f_fork_ptr(&fr, NULL, 0, 0, NULL) == F_EINVAL);
    EXPECT((f_fork_ptr)(&fr, NULL, 0, 0, NULL) == F_EINVAL);
    EXPECT(f_fork_seq(NULL, counted, 0, 0, NULL) == F_EINVAL);
    EXPECT(f_fork_seq(counted, NULL, 0, 0, NULL) == F_EINVAL);
    EXPECT(f_vfork(NULL, "l", 1L) == F_EINVAL);
    EXPECT(f_vfork(counted_v, NULL) == F_EINVAL);
    EXPECT(f_vfork(counted_v, "q") == F_EINVAL);
    EXPECT(f_vfork(counted_v, "lllllllll", 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L) == F_EINVAL);
    EXPECT(f_join() == F_OK);
    EXPECT(atomic_load(&called) == 0);
    /* The library is still usable here. */
    long r = -1;
    EXPECT(f_fork(fib, 15, 0, &r) == F_OK);
    EXPECT(f_join() == F_OK);
    EXPECT(r == 610);
}

START_TEST(test_forkjoin_errors_in_filament)
{
    FJ_START(_i);
    ck_assert_int_eq(f_fork(errors_in_filament, 0, 0, NULL), F_OK);
    ck_assert_int_eq(f_rtc_thread(F_ANY, errors_in_filament, 0, 0, NULL), F_OK);
    ck_assert_int_eq(fj_parallel(), F_OK);
    ck_assert_int_eq(atomic_load(&filament_errors), 0);
    ck_assert_int_eq(atomic_load(&called), 0);
}
END_TEST

/* Another thread of the program, while a run is under way. */
static void *outsider(void *unused)
{
    not_a_filament(F_ESTATE);
    return NULL;
}

static void start_outsider(long unused, long unused2, void *unused3)
{
    pthread_t t;
    FJ_REQUIRE(pthread_create(&t, NULL, outsider, NULL) == 0);
    FJ_REQUIRE(pthread_join(t, NULL) == 0);
}

START_TEST(test_forkjoin_errors_other_thread)
{
    FJ_START(_i);
    ck_assert_int_eq(f_fork(start_outsider, 0, 0, NULL), F_OK);
    ck_assert_int_eq(fj_parallel(), F_OK);
    ck_assert_int_eq(atomic_load(&called), 0);
}
END_TEST

/* A sync with nothing to sync returns 0 and leaves the library usable. */
static void sync_nothing(long unused, long unused2, void *unused3)
{
    f_frame fr = f_frame_here();
    EXPECT(f_sync_long(&fr, counted_long) == 0);
    EXPECT(f_sync_double(&fr, counted_double) == 0.0);
    EXPECT(f_sync_ptr(&fr, counted_ptr) == NULL);
    EXPECT((f_sync_long)(&fr, counted_long) == 0);
    long r = -1;
    EXPECT(f_fork(fib, 12, 0, &r) == F_OK);
    EXPECT(f_join() == F_OK);
    EXPECT(r == 144);
    EXPECT(fib_long(fr, 12, 0, NULL) == 144);
}

START_TEST(test_forkjoin_sync_nothing)
{
    FJ_START(_i);
    ck_assert_int_eq(f_fork(sync_nothing, 0, 0, NULL), F_OK);
    ck_assert_int_eq(f_rtc_thread(F_ANY, sync_nothing, 0, 0, NULL), F_OK);
    ck_assert_int_eq(fj_parallel(), F_OK);
    ck_assert_int_eq(atomic_load(&filament_errors), 0);
}
END_TEST

/* A child has nothing to sync even while its parent has a typed fork
 * outstanding: its sync returns 0 and the parent's sync gets its value. */
static void spurious_sync(long unused, long unused2, void *out)
{
    f_frame fr = f_frame_here();
    *(long *)out = f_sync_long(&fr, ret);
}

static void sync_nothing_parent(long unused, long unused2, void *out)
{
    f_frame fr = f_frame_here();
    long *o = out;
    FJ_REQUIRE(f_fork_long(&fr, ret, 42, 0, NULL) == F_OK);
    FJ_REQUIRE(f_fork(spurious_sync, 0, 0, &o[0]) == F_OK);
    FJ_REQUIRE(f_join() == F_OK);
    o[1] = f_sync_long(&fr, ret);
}

START_TEST(test_forkjoin_sync_nothing_in_child)
{
    FJ_START(_i);
    f_set_prune(0);
    long out[2] = { -1, -1 };
    ck_assert_int_eq(f_fork(sync_nothing_parent, 0, 0, out), F_OK);
    ck_assert_int_eq(fj_parallel_within(FJ_SHORT_S), F_OK);
    ck_assert_msg(out[0] == 0 && out[1] == 42,
                  "a child's sync with nothing to sync returned %ld (0) and took the parent's "
                  "result: the parent's sync returned %ld (42)",
                  out[0], out[1]);
}
END_TEST

/* The same for a child that a pruned fork calls inline, with untyped
 * children of its own forked before it takes its frame (f_frame_here
 * keeps its syncs above its first child, not above the bottom): the
 * child's syncs return 0 or its own results, and the parent's syncs,
 * after the child, get theirs. */
static void spurious_sync_after_forks(long unused, long unused2, void *out)
{
    long r = -1;
    FJ_REQUIRE(f_fork(fib, 10, 0, &r) == F_OK);
    f_frame fr = f_frame_here();
    long *o = out;
    o[0] = f_sync_long(&fr, ret);
    FJ_REQUIRE(f_fork_long(&fr, ret, 7, 0, NULL) == F_OK);
    o[1] = f_sync_long(&fr, ret);
    o[2] = f_sync_long(&fr, ret);
    FJ_REQUIRE(f_join() == F_OK);
    o[3] = r;
}

static void sync_nothing_pruned_parent(long unused, long unused2, void *out)
{
    f_frame fr = f_frame_here();
    long *o = out;
    FJ_REQUIRE(f_fork_long(&fr, ret, 42, 0, NULL) == F_OK);
    FJ_REQUIRE(f_fork_long(&fr, ret, 43, 0, NULL) == F_OK);
    FJ_REQUIRE(f_fork(spurious_sync_after_forks, 0, 0, o) == F_OK);  /* pruned: a call */
    FJ_REQUIRE(f_join() == F_OK);
    o[4] = f_sync_long(&fr, ret);
    o[5] = f_sync_long(&fr, ret);
}

START_TEST(test_forkjoin_sync_nothing_in_pruned_child)
{
    FJ_START(_i);
    f_set_prune(1);    /* two typed children queued: the untyped fork is pruned */
    long out[6] = { -1, -1, -1, -1, -1, -1 };
    ck_assert_int_eq(f_fork(sync_nothing_pruned_parent, 0, 0, out), F_OK);
    ck_assert_int_eq(fj_parallel_within(FJ_SHORT_S), F_OK);
    ck_assert_msg(out[0] == 0 && out[1] == 7 && out[2] == 0 && out[3] == 55 && out[4] == 43 &&
                      out[5] == 42,
                  "pruned child's syncs %ld %ld %ld (0 7 0), its join's child %ld (55); the "
                  "parent's syncs %ld %ld (43 42)",
                  out[0], out[1], out[2], out[3], out[4], out[5]);
}
END_TEST

/* A fork that fails for want of memory runs nothing, and a typed one
 * leaves nothing to sync. */
static void enomem_in_filament(long unused, long unused2, void *unused3)
{
    f_frame fr = f_frame_here();
    fi_alloc_fail_reset(1);
    EXPECT(f_vfork(counted_v, "l", 1L) == F_ENOMEM);
    fi_alloc_fail_reset(0);
    EXPECT(f_join() == F_OK);
    EXPECT(atomic_load(&called) == 0);

    /* A typed fork pruned because the deque is full keeps its child's
     * value in room reserved by f_initialize: it allocates nothing, and
     * cannot fail (f_fork(3)). */
    EXPECT(f_fork_long(&fr, ret, 5, 0, NULL) == F_OK);
    fill_deque();
    fi_alloc_fail_reset(1);
    EXPECT(f_fork_long(&fr, counted_long, 0, 0, NULL) == F_OK);
    fi_alloc_fail_reset(0);
    EXPECT(atomic_load(&called) == 1);
    EXPECT(f_sync_long(&fr, counted_long) == 1);
    atomic_store(&called, 0);
    EXPECT(f_join() == F_OK);    /* the noops, down to ret's slot */
    EXPECT(f_sync_long(&fr, ret) == 5);
    EXPECT(f_join() == F_OK);
    EXPECT(atomic_load(&called) == 0);
}

START_TEST(test_forkjoin_enomem_runs_nothing)
{
    FJ_START(_i);
    f_set_prune(0);
    fi_alloc_fail_reset(1);
    ck_assert_int_eq(f_vfork(counted_v, "l", 1L), F_ENOMEM);
    fi_alloc_fail_reset(0);
    ck_assert_int_eq(f_fork(enomem_in_filament, 0, 0, NULL), F_OK);
    ck_assert_int_eq(fj_parallel(), F_OK);
    ck_assert_int_eq(atomic_load(&filament_errors), 0);
    ck_assert_int_eq(atomic_load(&called), 0);
}
END_TEST

/* -------------------------------------------------------------- suite */

Suite *make_suite(void)
{
    Suite *s = suite_create("forkjoin");

    TCase *core = fj_tcase(s, "core");
    FJ_ADD(core, test_forkjoin_fib_root, 0, 16);
    FJ_ADD(core, test_forkjoin_stats_count_every_fork, 0, 16);
    FJ_ADD(core, test_forkjoin_sum_root, 0, 16);
    FJ_ADD(core, test_forkjoin_library_functions, 0, 16);
    FJ_ADD(core, test_forkjoin_in_rtc, 0, 16);
    FJ_ADD(core, test_forkjoin_in_iterative, 0, 16);
    FJ_ADD(core, test_forkjoin_in_barrier, 0, 16);
    FJ_ADD(core, test_forkjoin_barrier_leaves_children, 0, 16);
    FJ_ADD(core, test_forkjoin_many_roots, 0, 16);
    FJ_ADD(core, test_forkjoin_typed, 0, 16);
    FJ_ADD(core, test_forkjoin_typed_mixed, 0, 16);
    FJ_ADD(core, test_forkjoin_join_under_typed_fork, 0, 16);
    FJ_ADD(core, test_forkjoin_stale_frame, 0, 16);
    FJ_ADD(core, test_forkjoin_sync_names_another_function, 0, 16);
    FJ_ADD(core, test_forkjoin_typed_not_pruned_leaves_children, 0, 16);
    FJ_ADD(core, test_forkjoin_vfork, 0, 16);
    FJ_ADD(core, test_forkjoin_no_join, 0, 16);
    FJ_ADD(core, test_forkjoin_no_join_in_typed_tree, 0, 64);
    FJ_ADD(core, test_forkjoin_join_wait_is_idle, 0, 8);
    FJ_ADD(core, test_forkjoin_loop_join_answers_thieves, 0, 8);

    TCase *limits = fj_tcase(s, "limits");
    FJ_ADD(limits, test_forkjoin_chain_deep, 0, 16);
    FJ_ADD(limits, test_forkjoin_wider_than_deque, 0, 8);
    FJ_ADD(limits, test_forkjoin_roots_fill_deques, 0, 4);
    FJ_ADD(limits, test_forkjoin_full_deque_typed, 0, 4);
    FJ_ADD(limits, test_forkjoin_full_deque_typed_join_first, 0, 4);
    FJ_ADD(limits, test_forkjoin_small_deque_typed, 0, 32);
    FJ_ADD(limits, test_forkjoin_small_deque_untyped, 0, 32);
    FJ_ADD(limits, test_forkjoin_stats_typed_forks_counted_once, 0, 32);
    FJ_ADD(limits, test_forkjoin_values_kept_across_library_fork, 0, 16);
    FJ_ADD(limits, test_forkjoin_run_typed, 0, 16);
    FJ_ADD(limits, test_forkjoin_task_odd_members, 0, 16);
    FJ_ADD(limits, test_forkjoin_run_typed_errors, 0, 4);

    TCase *random = fj_tcase(s, "random");
    FJ_ADD(random, test_forkjoin_random_trees, 0, 200);
    FJ_ADD(random, test_forkjoin_random_trees_joins_in_typed, 0, 8);
    FJ_ADD(random, test_forkjoin_random_trees_small_deque, 0, 64);

    TCase *term = fj_tcase(s, "termination");
    FJ_ADD(term, test_forkjoin_termination, 0, 16);

    TCase *errors = fj_tcase(s, "errors");
    FJ_ADD(errors, test_forkjoin_errors_before_initialize, 0, 4);
    FJ_ADD(errors, test_forkjoin_errors_after_finalize, 0, 4);
    FJ_ADD(errors, test_forkjoin_errors_from_main, 0, 4);
    FJ_ADD(errors, test_forkjoin_errors_in_filament, 0, 4);
    FJ_ADD(errors, test_forkjoin_errors_other_thread, 0, 4);
    FJ_ADD(errors, test_forkjoin_sync_nothing, 0, 4);
    FJ_ADD(errors, test_forkjoin_sync_nothing_in_child, 0, 4);
    FJ_ADD(errors, test_forkjoin_sync_nothing_in_pruned_child, 0, 4);
    FJ_ADD(errors, test_forkjoin_enomem_runs_nothing, 0, 4);
    return s;
}
