/*
 * check_vararg.c - suite "vararg": variable-argument filaments [paper §4.1].
 * f_rtc_vthread and f_iterative_vthread with formats of longs, doubles,
 * pointers, mixed, empty and F_MAX_ARGS arguments, received exactly; bad
 * formats and functions are F_EINVAL and nothing of them runs.
 */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <string.h>

#include "tests.h"

/* What the filaments saw, checked against what was passed. */
struct seen {
    atomic_long calls;
    atomic_long bad;
    atomic_long where[8];
};

static struct seen seen;
static int marker[4];

static void seen_reset(void)
{
    atomic_store(&seen.calls, 0);
    atomic_store(&seen.bad, 0);
    for (int s = 0; s < 8; ++s)
        atomic_store(&seen.where[s], 0);
}

static void note(int ok)
{
    atomic_fetch_add(&seen.calls, 1);
    if (!ok)
        atomic_fetch_add(&seen.bad, 1);
    int s = f_my_server();
    if (s >= 0 && s < 8)
        atomic_fetch_add(&seen.where[s], 1);
}

static int same_double(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

static void v_l(const f_value *a) { note(a[0].l == LONG_MIN); }
static void v_l2(const f_value *a) { note(a[0].l == LONG_MAX); }
static void v_d(const f_value *a) { note(same_double(a[0].d, -0.0) && signbit(a[0].d)); }
static void v_d2(const f_value *a) { note(same_double(a[0].d, DBL_MIN / 4)); }
static void v_p(const f_value *a) { note(a[0].p == &marker[2]); }
static void v_pnull(const f_value *a) { note(a[0].p == NULL); }
static void v_empty(const f_value *a) { note(1); }
static void v_mixed(const f_value *a)
{
    note(a[0].l == -42 && same_double(a[1].d, 3.25) && a[2].p == &marker[1] && a[3].l == 7 &&
         same_double(a[4].d, -1e-300));
}
static void v_max(const f_value *a)
{
    note(a[0].l == 1 && same_double(a[1].d, 2.5) && a[2].p == &marker[0] && a[3].l == -4 &&
         same_double(a[4].d, INFINITY) && a[5].p == &marker[3] && a[6].l == LONG_MAX &&
         same_double(a[7].d, -DBL_MAX));
}
static void v_eight_l(const f_value *a)
{
    int ok = 1;
    for (long k = 0; k < F_MAX_ARGS; ++k)
        ok &= a[k].l == 100 + k;
    note(ok);
}

/* Create one filament of each format on `server`; returns how many. */
static int create_each(int (*create)(int, f_vfunc, const char *, ...), int server)
{
    ck_assert_int_eq(create(server, v_l, "l", LONG_MIN), F_OK);
    ck_assert_int_eq(create(server, v_l2, "l", LONG_MAX), F_OK);
    ck_assert_int_eq(create(server, v_d, "d", -0.0), F_OK);
    ck_assert_int_eq(create(server, v_d2, "d", DBL_MIN / 4), F_OK);
    ck_assert_int_eq(create(server, v_p, "p", (void *)&marker[2]), F_OK);
    ck_assert_int_eq(create(server, v_pnull, "p", (void *)NULL), F_OK);
    ck_assert_int_eq(create(server, v_empty, ""), F_OK);
    ck_assert_int_eq(create(server, v_mixed, "ldpld", -42L, 3.25, (void *)&marker[1], 7L, -1e-300),
                     F_OK);
    ck_assert_int_eq(create(server, v_max, "ldpldpld", 1L, 2.5, (void *)&marker[0], -4L, INFINITY,
                            (void *)&marker[3], LONG_MAX, -DBL_MAX),
                     F_OK);
    ck_assert_int_eq(create(server, v_eight_l, "llllllll", 100L, 101L, 102L, 103L, 104L, 105L,
                            106L, 107L),
                     F_OK);
    return 10;
}

START_TEST(test_vararg_rtc_formats)
{
    int n = t_start_loop(_i);
    seen_reset();
    long made = 0;
    for (int s = 0; s < n; ++s) {
        int now = create_each(f_rtc_vthread, s);
        made += now;
        ck_assert_int_eq(f_parallel(), F_OK);
        long on_s = atomic_load(&seen.where[s]), calls = atomic_load(&seen.calls);
        ck_assert_int_eq(on_s, now);  /* all ran on s */
        ck_assert_int_eq(calls, made);
        atomic_store(&seen.where[s], 0);
    }
    made += create_each(f_rtc_vthread, F_ANY);
    ck_assert_int_eq(f_parallel(), F_OK);
    ck_assert_int_eq(t_ldl(&seen.calls), made);
    ck_assert_int_eq(t_ldl(&seen.bad), 0);
}
END_TEST

/* Past the first chunk, and mixed with plain RTC filaments. */
static void v_index(const f_value *a)
{
    struct t_record *r = a[1].p;
    t_record_hit(r, a[0].l);
    note(same_double(a[2].d, (double)a[0].l / 8));
}

START_TEST(test_vararg_rtc_many)
{
    int n = t_start_loop(_i);
    seen_reset();
    struct t_record *r = t_record_new(3000);
    for (long k = 0; k < r->n; k += 2) {
        int where = k % 6 == 0 ? F_ANY : (int)(k % n);
        T_REQUIRE_EQ(f_rtc_vthread(where, v_index, "lpd", k, (void *)r, (double)k / 8), F_OK);
        T_REQUIRE_EQ(f_rtc_thread(where, t_record_fn, k + 1, 0, r), F_OK);
    }
    ck_assert_int_eq(f_parallel(), F_OK);
    T_ASSERT_NO_FAILURES();
    t_record_assert_runs(r, 1);
    ck_assert_int_eq(t_ldl(&seen.bad), 0);
    ck_assert_int_eq(t_ldl(&seen.calls), r->n / 2);
    t_record_free(r);
}
END_TEST

/* From filaments: to their own server, another one, and F_ANY. */
static void v_leaf(const f_value *a)
{
    note(a[0].l == f_my_server() || a[0].l == -1);
}

static void v_spawner(long i, long j, void *arg)
{
    int me = f_my_server(), n = f_num_servers();
    T_EXPECT(f_rtc_vthread(me, v_leaf, "l", (long)me) == F_OK);
    T_EXPECT(f_rtc_vthread((me + 1) % n, v_leaf, "l", (long)((me + 1) % n)) == F_OK);
    T_EXPECT(f_rtc_vthread(F_ANY, v_leaf, "l", -1L) == F_OK);
    T_EXPECT(f_rtc_vthread(n, v_leaf, "l", 0L) == F_EINVAL);
    T_EXPECT(f_rtc_vthread(me, v_leaf, "x", 0L) == F_EINVAL);
}

START_TEST(test_vararg_rtc_from_filaments)
{
    int n = t_start_loop(_i);
    seen_reset();
    for (int s = 0; s < n; ++s)
        for (int k = 0; k < 100; ++k)
            ck_assert_int_eq(f_rtc_thread(s, v_spawner, 0, 0, NULL), F_OK);
    ck_assert_int_eq(f_parallel(), F_OK);
    T_ASSERT_NO_FAILURES();
    ck_assert_int_eq(t_ldl(&seen.calls), 300L * n);
    ck_assert_int_eq(t_ldl(&seen.bad), 0);
}
END_TEST

/* Iterative: once per pass each, with the same arguments every pass. */
static long iter_calls;
static int iter_seq(void *arg)
{
    return ++iter_calls == 5 ? F_DONE : F_NOTDONE;
}

START_TEST(test_vararg_iterative_formats)
{
    int n = t_start_loop(_i);
    seen_reset();
    iter_calls = 0;
    ck_assert_int_ge(f_new_barrier(iter_seq, NULL), 0);
    long made = 0;
    for (int s = 0; s < n; ++s)
        made += create_each(f_iterative_vthread, s);
    made += create_each(f_iterative_vthread, F_ANY);
    ck_assert_int_eq(f_parallel(), F_OK);
    ck_assert_int_eq(iter_calls, 5);
    ck_assert_int_eq(t_ldl(&seen.calls), 5 * made);
    ck_assert_int_eq(t_ldl(&seen.bad), 0);
    for (int s = 0; s < n; ++s)
        ck_assert_int_ge(t_ldl(&seen.where[s]), 5 * 10);
}
END_TEST

/* Bad formats, too many arguments, NULL format or function: F_EINVAL, and
 * nothing of them ever runs. */
START_TEST(test_vararg_errors)
{
    int n = t_start_loop(_i);
    seen_reset();
    static const char *bad[] = { "x", "lx", "l d", "L", "i", "f", "ldpldpldl", "lllllllll",
                                 "ddddddddd", "s" };
    for (size_t b = 0; b < sizeof bad / sizeof *bad; ++b) {
        for (int s = -1; s < n; ++s) {
            ck_assert_int_eq(f_rtc_vthread(s, v_empty, bad[b], 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L),
                             F_EINVAL);
        }
    }
    ck_assert_int_eq(f_rtc_vthread(0, v_empty, NULL), F_EINVAL);
    ck_assert_int_eq(f_rtc_vthread(0, NULL, "l", 1L), F_EINVAL);
    ck_assert_int_eq(f_rtc_vthread(0, NULL, ""), F_EINVAL);
    ck_assert_int_eq(f_rtc_vthread(-2, v_empty, ""), F_EINVAL);
    ck_assert_int_eq(f_rtc_vthread(n, v_empty, "l", 1L), F_EINVAL);
    ck_assert_int_eq(f_rtc_vthread(n + 100, v_empty, ""), F_EINVAL);
    /* Iterative: before any barrier it is the state that is wrong. */
    ck_assert_int_eq(f_iterative_vthread(0, v_empty, ""), F_ESTATE);
    ck_assert_int_eq(f_iterative_vthread(0, v_empty, "x"), F_ESTATE);
    iter_calls = 0;
    ck_assert_int_ge(f_new_barrier(iter_seq, NULL), 0);
    for (size_t b = 0; b < sizeof bad / sizeof *bad; ++b)
        ck_assert_int_eq(
            f_iterative_vthread(0, v_empty, bad[b], 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L), F_EINVAL);
    ck_assert_int_eq(f_iterative_vthread(0, v_empty, NULL), F_EINVAL);
    ck_assert_int_eq(f_iterative_vthread(0, NULL, "l", 1L), F_EINVAL);
    ck_assert_int_eq(f_iterative_vthread(-2, v_empty, ""), F_EINVAL);
    ck_assert_int_eq(f_iterative_vthread(n, v_empty, ""), F_EINVAL);
    ck_assert_int_eq(f_parallel(), F_OK);
    ck_assert_int_eq(iter_calls, 5);
    ck_assert_int_eq(t_ldl(&seen.calls), 0);
    /* And the library works normally afterwards. */
    create_each(f_rtc_vthread, n - 1);
    ck_assert_int_eq(f_parallel(), F_OK);
    ck_assert_int_eq(t_ldl(&seen.calls), 10);
    ck_assert_int_eq(t_ldl(&seen.bad), 0);
    t_assert_library_works();
}
END_TEST

/* Created and never run: f_finalize drops them (valgrind shows no leak). */
START_TEST(test_vararg_never_run)
{
    int n = t_start_loop(_i);
    seen_reset();
    for (int s = -1; s < n; ++s)
        create_each(f_rtc_vthread, s);
    ck_assert_int_ge(f_new_barrier(iter_seq, NULL), 0);
    create_each(f_iterative_vthread, 0);
    f_finalize();
    ck_assert_int_eq(t_ldl(&seen.calls), 0);
    t_start(n);
    t_assert_library_works();
    ck_assert_int_eq(t_ldl(&seen.calls), 0);
}
END_TEST

Suite *make_suite(void)
{
    Suite *s = suite_create("vararg");
    TCase *core = t_tcase(s, "core");
    tcase_add_loop_test(core, test_vararg_rtc_formats, 0, T_NCOUNTS);
    tcase_add_loop_test(core, test_vararg_rtc_many, 0, T_NCOUNTS);
    tcase_add_loop_test(core, test_vararg_rtc_from_filaments, 0, T_NCOUNTS);
    tcase_add_loop_test(core, test_vararg_iterative_formats, 0, T_NCOUNTS);
    tcase_add_loop_test(core, test_vararg_never_run, 0, T_NCOUNTS);
    TCase *errors = t_tcase(s, "errors");
    tcase_add_loop_test(errors, test_vararg_errors, 0, T_NCOUNTS);
    return s;
}
