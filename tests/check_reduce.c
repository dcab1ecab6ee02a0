/*
 * check_reduce.c - suite "reduce": reductions over doubles [paper §2.2].
 * Identities of new and reset reductions, F_SUM/F_MIN/F_MAX from every
 * server, accumulation across runs until reset, the value in barrier code,
 * the function form (f_reduce)(r, v) beside the inline macro, and folding
 * through the server's own slot (f_reduction_local).
 */
#include <math.h>

#include "tests.h"

START_TEST(test_reduce_identities)
{
    t_start_loop(_i);
    f_reduction *sum = f_new_reduction(F_SUM);
    f_reduction *min = f_new_reduction(F_MIN);
    f_reduction *max = f_new_reduction(F_MAX);
    ck_assert_ptr_nonnull(sum);
    ck_assert_ptr_nonnull(min);
    ck_assert_ptr_nonnull(max);
    for (int round = 0; round < 2; ++round) {
        ck_assert(f_reduction_value(sum) == 0.0);
        ck_assert(!signbit(f_reduction_value(sum)));
        ck_assert(isinf(f_reduction_value(min)) && f_reduction_value(min) > 0);
        ck_assert(isinf(f_reduction_value(max)) && f_reduction_value(max) < 0);
        /* An empty run changes nothing. */
        ck_assert_int_eq(f_parallel(), F_OK);
        ck_assert(f_reduction_value(sum) == 0.0);
        ck_assert(isinf(f_reduction_value(min)) && f_reduction_value(min) > 0);
        ck_assert(isinf(f_reduction_value(max)) && f_reduction_value(max) < 0);
        /* From main, then reset: the identities again. */
        f_reduce(sum, 5.0);
        f_reduce(min, 5.0);
        (f_reduce)(max, 5.0);
        ck_assert(f_reduction_value(sum) == 5.0);
        ck_assert(f_reduction_value(min) == 5.0);
        ck_assert(f_reduction_value(max) == 5.0);
        f_reduction_reset(sum);
        f_reduction_reset(min);
        f_reduction_reset(max);
    }
}
END_TEST

/* Every filament reduces its own value: exact integer sums, the true min
 * and max; by the macro, the function, or its server's slot (j = 0, 1, 2). */
struct many_job {
    f_reduction *sum, *min, *max, *fsum;
    atomic_int bad;
};

static void many_fn(long i, long j, void *arg)
{
    struct many_job *m = arg;
    double v = (double)(i * 37 % 1001) - 500.0;  /* -500 .. 500 */
    if (j == 0) {
        f_reduce(m->sum, v);
        f_reduce(m->min, v);
        f_reduce(m->max, v);
    } else if (j == 2) {
        double *sum = f_reduction_local(m->sum), *min = (f_reduction_local)(m->min);
        double *max = f_reduction_local(m->max);
        *sum += v;
        *min = fmin(*min, v);
        *max = fmax(*max, v);
    } else {
        (f_reduce)(m->sum, v);
        (f_reduce)(m->min, v);
        (f_reduce)(m->max, v);
    }
    (f_reduce)(m->fsum, 1.0);
}

START_TEST(test_reduce_from_all_servers)
{
    int n = t_start_loop(_i);
    struct many_job m;
    m.sum = f_new_reduction(F_SUM);
    m.min = f_new_reduction(F_MIN);
    m.max = f_new_reduction(F_MAX);
    m.fsum = f_new_reduction(F_SUM);
    ck_assert(m.sum && m.min && m.max && m.fsum);
    const long count = 20000;
    double want_sum = 0, want_min = INFINITY, want_max = -INFINITY;
    for (long i = 0; i < count; ++i) {
        double v = (double)(i * 37 % 1001) - 500.0;
        want_sum += v;
        want_min = fmin(want_min, v);
        want_max = fmax(want_max, v);
        int where = i % 3 == 0 ? F_ANY : (int)(i % n);
        T_REQUIRE_EQ(f_rtc_thread(where, many_fn, i, i % 3, &m), F_OK);
    }
    ck_assert_int_eq(f_parallel(), F_OK);
    ck_assert(f_reduction_value(m.sum) == want_sum);
    ck_assert(f_reduction_value(m.min) == want_min);
    ck_assert(f_reduction_value(m.max) == want_max);
    ck_assert(f_reduction_value(m.fsum) == (double)count);
    ck_assert(want_min == -500.0 && want_max == 500.0);
}
END_TEST

/* f_reduction_local is the calling server's slot: one per server, the same
 * for every filament there, and server 0's from the main thread; the
 * function form returns NULL for NULL. */
static double *_Atomic local_seen[64];
static atomic_int local_bad;

static void local_fn(long i, long j, void *arg)
{
    double *p = f_reduction_local((f_reduction *)arg);
    double *none = NULL;
    if (p != (f_reduction_local)((f_reduction *)arg) ||
        (!atomic_compare_exchange_strong(&local_seen[f_my_server()], &none, p) && none != p))
        atomic_fetch_add(&local_bad, 1);
}

START_TEST(test_reduce_local_slots)
{
    int n = t_start_loop(_i);
    f_reduction *r = f_new_reduction(F_SUM);
    ck_assert_ptr_nonnull(r);
    ck_assert_ptr_null((f_reduction_local)(NULL));
    ck_assert_int_le(n, 64);
    atomic_store(&local_bad, 0);
    for (int s = 0; s < n; ++s) {
        atomic_store(&local_seen[s], NULL);
        for (int k = 0; k < 50; ++k)
            ck_assert_int_eq(f_rtc_thread(s, local_fn, s, k, r), F_OK);
    }
    ck_assert_int_eq(f_parallel(), F_OK);
    ck_assert_int_eq(atomic_load(&local_bad), 0);
    for (int s = 0; s < n; ++s) {
        ck_assert_ptr_nonnull(atomic_load(&local_seen[s]));
        for (int t = 0; t < s; ++t)
            ck_assert_ptr_ne(atomic_load(&local_seen[s]), atomic_load(&local_seen[t]));
    }
    ck_assert_ptr_eq(f_reduction_local(r), atomic_load(&local_seen[0]));
    *f_reduction_local(r) += 2.5;
    ck_assert(f_reduction_value(r) == 2.5);
    f_free_reduction(r);
}
END_TEST

/* Values that only one server sees: min and max come from that server. */
static void extreme_fn(long i, long j, void *arg)
{
    struct many_job *m = arg;
    double v = f_my_server() == (int)i ? (j ? 1e300 : -1e300) : (double)f_my_server();
    f_reduce(m->min, v);
    f_reduce(m->max, -v);
}

START_TEST(test_reduce_min_max_one_server)
{
    int n = t_start_loop(_i);
    for (int special = 0; special < n; ++special) {
        struct many_job m;
        m.min = f_new_reduction(F_MIN);
        m.max = f_new_reduction(F_MAX);
        ck_assert(m.min && m.max);
        for (int s = 0; s < n; ++s)
            for (int k = 0; k < 20; ++k)
                ck_assert_int_eq(f_rtc_thread(s, extreme_fn, special, 0, &m), F_OK);
        ck_assert_int_eq(f_parallel(), F_OK);
        ck_assert(f_reduction_value(m.min) == -1e300);
        ck_assert(f_reduction_value(m.max) == 1e300);
        f_free_reduction(m.min);
        f_free_reduction(m.max);
    }
}
END_TEST

/* A reduction accumulates across runs until it is reset. */
static void add_i(long i, long j, void *arg)
{
    f_reduce((f_reduction *)arg, (double)i);
}

START_TEST(test_reduce_accumulates_across_runs)
{
    int n = t_start_loop(_i);
    f_reduction *sum = f_new_reduction(F_SUM);
    f_reduction *max = f_new_reduction(F_MAX);
    ck_assert(sum && max);
    double want = 0;
    for (int run = 1; run <= 4; ++run) {
        for (int s = 0; s < n; ++s) {
            ck_assert_int_eq(f_rtc_thread(s, add_i, run * 10 + s, 0, sum), F_OK);
            ck_assert_int_eq(f_rtc_thread(s, add_i, run, 0, max), F_OK);
            want += run * 10 + s;
        }
        ck_assert_int_eq(f_parallel(), F_OK);
        ck_assert(f_reduction_value(sum) == want);
        ck_assert(f_reduction_value(max) == run);
    }
    f_reduction_reset(sum);
    f_reduction_reset(max);
    ck_assert(f_reduction_value(sum) == 0.0);
    for (int s = 0; s < n; ++s) {
        ck_assert_int_eq(f_rtc_thread(s, add_i, 3, 0, sum), F_OK);
        ck_assert_int_eq(f_rtc_thread(s, add_i, -7, 0, max), F_OK);
    }
    ck_assert_int_eq(f_parallel(), F_OK);
    ck_assert(f_reduction_value(sum) == 3.0 * n);
    ck_assert(f_reduction_value(max) == -7.0);
}
END_TEST

/*
 * In barrier code: after pass p the value holds the sum of passes 1..p
 * (never reset) and the last pass alone (reset by seq after reading it).
 */
struct barrier_job {
    f_reduction *total, *pass, *min;
    long per_pass_sum, calls, k, bad;
};

static void barrier_fn(long i, long j, void *arg)
{
    struct barrier_job *b = arg;
    f_reduce(b->total, (double)i);
    (f_reduce)(b->pass, (double)i);
    f_reduce(b->min, (double)(i - b->calls));  /* calls: read-only during passes */
}

static int barrier_seq(void *arg)
{
    struct barrier_job *b = arg;
    ++b->calls;
    if (f_reduction_value(b->total) != (double)(b->calls * b->per_pass_sum))
        b->bad++;
    if (f_reduction_value(b->pass) != (double)b->per_pass_sum)
        b->bad++;
    if (f_reduction_value(b->min) != (double)(1 - (b->calls - 1)))
        b->bad++;
    f_reduction_reset(b->pass);
    f_reduction_reset(b->min);
    if (f_reduction_value(b->pass) != 0.0 || f_reduction_value(b->min) != INFINITY)
        b->bad++;
    return b->calls == b->k ? F_DONE : F_NOTDONE;
}

START_TEST(test_reduce_in_barrier_code)
{
    int n = t_start_loop(_i);
    struct barrier_job b = { .k = 30 };
    b.total = f_new_reduction(F_SUM);
    b.pass = f_new_reduction(F_SUM);
    b.min = f_new_reduction(F_MIN);
    ck_assert(b.total && b.pass && b.min);
    ck_assert_int_ge(f_new_barrier(barrier_seq, &b), 0);
    for (int s = 0; s < n; ++s)
        for (long i = 1; i <= 10; ++i) {
            ck_assert_int_eq(f_iterative_thread(s, barrier_fn, i, 0, &b), F_OK);
            b.per_pass_sum += i;
        }
    for (long i = 1; i <= 5; ++i) {
        ck_assert_int_eq(f_iterative_thread(F_ANY, barrier_fn, i, 1, &b), F_OK);
        b.per_pass_sum += i;
    }
    ck_assert_int_eq(f_parallel(), F_OK);
    ck_assert_int_eq(b.calls, 30);
    ck_assert_int_eq(b.bad, 0);
    ck_assert(f_reduction_value(b.total) == 30.0 * b.per_pass_sum);
}
END_TEST

/* Many reductions at once, and freed ones do not disturb the others. */
START_TEST(test_reduce_many_reductions)
{
    int n = t_start_loop(_i);
    f_reduction *r[40];
    for (int k = 0; k < 40; ++k) {
        r[k] = f_new_reduction((enum f_op)(k % 3));
        ck_assert_ptr_nonnull(r[k]);
    }
    for (int k = 0; k < 40; k += 4)
        f_free_reduction(r[k]);
    for (int k = 0; k < 40; ++k)
        if (k % 4 != 0)
            for (int s = 0; s < n; ++s)
                ck_assert_int_eq(f_rtc_thread(s, add_i, k + s, 0, r[k]), F_OK);
    ck_assert_int_eq(f_parallel(), F_OK);
    for (int k = 0; k < 40; ++k) {
        if (k % 4 == 0)
            continue;
        double want = k % 3 == F_SUM ? (double)n * k + n * (n - 1) / 2.0
                      : k % 3 == F_MIN ? (double)k : (double)(k + n - 1);
        ck_assert_msg(f_reduction_value(r[k]) == want, "reduction %d: %g, want %g", k,
                      f_reduction_value(r[k]), want);
    }
    f_free_reduction(NULL);
    ck_assert(isnan(f_reduction_value(NULL)));
}
END_TEST

Suite *make_suite(void)
{
    Suite *s = suite_create("reduce");
    TCase *core = t_tcase(s, "core");
    tcase_add_loop_test(core, test_reduce_identities, 0, T_NCOUNTS);
    tcase_add_loop_test(core, test_reduce_from_all_servers, 0, T_NCOUNTS);
    tcase_add_loop_test(core, test_reduce_min_max_one_server, 0, T_NCOUNTS);
    tcase_add_loop_test(core, test_reduce_local_slots, 0, T_NCOUNTS);
    tcase_add_loop_test(core, test_reduce_accumulates_across_runs, 0, T_NCOUNTS);
    tcase_add_loop_test(core, test_reduce_in_barrier_code, 0, T_NCOUNTS);
    tcase_add_loop_test(core, test_reduce_many_reductions, 0, T_NCOUNTS);
    return s;
}
