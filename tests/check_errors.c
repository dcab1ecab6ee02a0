/*
 * check_errors.c - suite "errors": every error the calls that exist can
 * return (f_strerror(3)), and that a failed call creates nothing and
 * leaves the library working: after each error a correct job runs and its
 * results are checked.
 *
 * F_ESTATE: before f_initialize and after f_finalize; f_initialize twice or
 * from a filament; f_parallel from a filament or barrier code; phases and
 * iterative filaments from filaments; creation in barrier code; f_join and
 * forks outside the servers.
 * F_EINVAL: server counts, environment variables, servers, functions,
 * formats and argument counts of the variable-argument calls.
 * doc/errors.md is the table of these cases; each row names its test here.
 * Locks need no library: they work before f_initialize and after f_finalize.
 */
#define _POSIX_C_SOURCE 200809L
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"    /* HAVE_PTHREAD_ATTR_SETAFFINITY_NP */
#include "tests.h"
#include "tunables.h"  /* FI_MAX_SERVERS, FI_CHUNK_MAX, FI_BARRIER_FANIN */

static atomic_long ran;  /* filaments of failed calls would count here */

static void count_ran(long i, long j, void *arg) { atomic_fetch_add(&ran, 1); }
static void count_ran_v(const f_value *a) { atomic_fetch_add(&ran, 1); }
static void range_fn(long i, long jb, long je, void *arg) { atomic_fetch_add(&ran, 1); }
static int seq_done(void *arg) { return F_DONE; }
static long long_fn(f_frame fr, long i, long j, void *arg) { return i; }

/* Every call that needs the library, with good and bad arguments. */
static void assert_all_estate(void)
{
    f_frame fr = f_frame_here();
    struct f_stats st;
    ck_assert_int_eq(f_parallel(), F_ESTATE);
    int servers[] = { 0, 1, F_ANY, -2, 1000, INT_MIN };
    for (size_t k = 0; k < sizeof servers / sizeof *servers; ++k) {
        ck_assert_int_eq(f_rtc_thread(servers[k], count_ran, 0, 0, NULL), F_ESTATE);
        ck_assert_int_eq(f_rtc_thread(servers[k], NULL, 0, 0, NULL), F_ESTATE);
        ck_assert_int_eq(f_iterative_thread(servers[k], count_ran, 0, 0, NULL), F_ESTATE);
        ck_assert_int_eq(f_iterative_thread(servers[k], NULL, 0, 0, NULL), F_ESTATE);
        ck_assert_int_eq(f_iterative_row(servers[k], count_ran, 0, 0, 10, NULL), F_ESTATE);
        ck_assert_int_eq(f_iterative_row(servers[k], count_ran, 0, 0, 0, NULL), F_ESTATE);
        ck_assert_int_eq(f_iterative_row(servers[k], NULL, 0, 10, 0, NULL), F_ESTATE);
        ck_assert_int_eq(f_rtc_vthread(servers[k], count_ran_v, "l", 1L), F_ESTATE);
        ck_assert_int_eq(f_rtc_vthread(servers[k], NULL, NULL), F_ESTATE);
        ck_assert_int_eq(f_iterative_vthread(servers[k], count_ran_v, "l", 1L), F_ESTATE);
        ck_assert_int_eq(f_get_stats(servers[k], &st), F_ESTATE);
        ck_assert_int_eq(f_get_stats(servers[k], NULL), F_ESTATE);
    }
    ck_assert_int_eq(f_fork(count_ran, 0, 0, NULL), F_ESTATE);
    ck_assert_int_eq(f_fork(NULL, 0, 0, NULL), F_ESTATE);
    ck_assert_int_eq(f_fork_seq(count_ran, count_ran, 0, 0, NULL), F_ESTATE);
    ck_assert_int_eq(f_fork_seq(count_ran, NULL, 0, 0, NULL), F_ESTATE);
    /* Outside a filament a typed fork is a call (f_fork(3)); only a NULL
     * frame pointer or function fails. */
    ck_assert_int_eq(f_fork_long(&fr, long_fn, 7, 0, NULL), F_OK);
    ck_assert_int_eq(f_fork_long(&fr, long_fn, 8, 0, NULL), F_OK);
    ck_assert_int_eq(f_sync_long(&fr, long_fn), 8);
    ck_assert_int_eq(f_sync_long(&fr, long_fn), 7);
    ck_assert_int_eq(f_fork_long(NULL, long_fn, 0, 0, NULL), F_EINVAL);
    ck_assert_int_eq((f_fork_long)(NULL, long_fn, 0, 0, NULL), F_EINVAL);
    ck_assert_int_eq(f_fork_double(NULL, NULL, 0, 0, NULL), F_EINVAL);
    ck_assert_int_eq(f_fork_ptr(&fr, NULL, 0, 0, NULL), F_EINVAL);
    ck_assert_int_eq(f_fork_long_seq(&fr, long_fn, NULL, 0, 0, NULL), F_EINVAL);
    ck_assert_int_eq(f_vfork(count_ran_v, "l", 1L), F_ESTATE);
    ck_assert_int_eq(f_vfork(count_ran_v, "x"), F_ESTATE);
    ck_assert_int_eq(f_join(), F_ESTATE);
    ck_assert_int_eq(f_new_barrier(NULL, NULL), F_ESTATE);
    ck_assert_int_eq(f_new_barrier(seq_done, &st), F_ESTATE);
    ck_assert_int_eq(f_set_range_version(count_ran, range_fn), F_ESTATE);
    ck_assert_int_eq(f_set_range_version(count_ran, NULL), F_ESTATE);
    ck_assert_int_eq(f_set_range_version(NULL, NULL), F_ESTATE);
    ck_assert_int_eq(f_num_servers(), F_ESTATE);
    ck_assert_int_eq(f_my_server(), F_ESTATE);
    ck_assert_int_eq(f_reset_stats(), F_ESTATE);
    ck_assert_ptr_null(f_new_reduction(F_SUM));
    ck_assert_ptr_null(f_new_reduction(F_MIN));
    ck_assert_ptr_null(f_new_reduction(F_MAX));
    ck_assert_ptr_null(f_new_continuation(8));
    f_finalize();  /* harmless */
    f_finalize();
}

START_TEST(test_errors_before_initialize)
{
    atomic_store(&ran, 0);
    assert_all_estate();
    int n = t_start_loop(_i);
    ck_assert_int_eq(f_parallel(), F_OK);
    t_assert_library_works();
    ck_assert_int_eq(t_ldl(&ran), 0);
    ck_assert_int_eq(f_num_servers(), n);
}
END_TEST

START_TEST(test_errors_after_finalize)
{
    atomic_store(&ran, 0);
    int n = t_start_loop(_i);
    t_assert_library_works();
    f_finalize();
    assert_all_estate();
    t_start(n);
    t_assert_library_works();
    f_finalize();
    assert_all_estate();
    t_start(n);
    ck_assert_int_eq(f_parallel(), F_OK);
    ck_assert_int_eq(t_ldl(&ran), 0);
    t_assert_library_works();
}
END_TEST

START_TEST(test_errors_initialize_twice)
{
    int n = t_start_loop(_i);
    ck_assert_int_eq(f_initialize(n), F_ESTATE);
    ck_assert_int_eq(f_initialize(n + 1), F_ESTATE);
    ck_assert_int_eq(f_initialize(0), F_ESTATE);
    ck_assert_int_eq(f_initialize(FI_MAX_SERVERS + 1), F_ESTATE);
    ck_assert_int_eq(f_num_servers(), n);
    t_assert_library_works();
    ck_assert_int_eq(f_num_servers(), n);
}
END_TEST

START_TEST(test_errors_initialize_too_many)
{
    ck_assert_int_eq(f_initialize(FI_MAX_SERVERS + 1), F_EINVAL);
    ck_assert_int_eq(f_num_servers(), F_ESTATE);
    ck_assert_int_eq(f_initialize(INT_MAX), F_EINVAL);
    ck_assert_int_eq(f_num_servers(), F_ESTATE);
    t_start(2);
    t_assert_library_works();
}
END_TEST

/* Bad environment values: f_initialize returns F_EINVAL and initializes nothing. */
static void assert_env_rejected(const char *name, const char *value)
{
    ck_assert_int_eq(setenv(name, value, 1), 0);
    int rc = f_initialize(0);
    ck_assert_msg(rc == F_EINVAL, "%s=\"%s\": f_initialize(0) = %d, not F_EINVAL", name, value, rc);
    ck_assert_int_eq(f_num_servers(), F_ESTATE);
    ck_assert_int_eq(f_rtc_thread(0, count_ran, 0, 0, NULL), F_ESTATE);
    ck_assert_int_eq(unsetenv(name), 0);
    t_start(2);
    t_assert_library_works();
    f_finalize();
}

static void assert_env_accepted(const char *name, const char *value)
{
    ck_assert_int_eq(setenv(name, value, 1), 0);
    int rc = f_initialize(2);
    ck_assert_msg(rc == F_OK, "%s=\"%s\": f_initialize(2) = %d", name, value, rc);
    t_assert_library_works();
    f_finalize();
    ck_assert_int_eq(unsetenv(name), 0);
}

START_TEST(test_errors_env_servers)
{
    static const char *bad[] = { "0", "-1", "abc", "1x", "99999999999", "", "1025", "2 3",
                                 "99999999999999999999999" };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; ++k)
        assert_env_rejected("FILAMENTS_SERVERS", bad[k]);
    char max[32];
    snprintf(max, sizeof max, "%d", FI_MAX_SERVERS + 1);
    assert_env_rejected("FILAMENTS_SERVERS", max);
}
END_TEST

START_TEST(test_errors_env_prune)
{
    static const char *bad[] = { "abc", "-5", "-1", "", "1x", "Auto", "99999999999999999999999" };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; ++k)
        assert_env_rejected("FILAMENTS_PRUNE", bad[k]);
    static const char *good[] = { "auto", "0", "1", "10", "1000000" };
    for (size_t k = 0; k < sizeof good / sizeof *good; ++k)
        assert_env_accepted("FILAMENTS_PRUNE", good[k]);
}
END_TEST

START_TEST(test_errors_env_deque)
{
    static const char *bad[] = { "0", "1", "-2", "", "8x", "x", "2147483648", "99999999999999999999" };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; ++k)
        assert_env_rejected("FILAMENTS_DEQUE", bad[k]);
    static const char *good[] = { "2", "3", "1000", "65536" };
    for (size_t k = 0; k < sizeof good / sizeof *good; ++k)
        assert_env_accepted("FILAMENTS_DEQUE", good[k]);
}
END_TEST

/* The variables for tests (env.c): chunk sizes MIN,MAX, the barrier's
 * fan-in; each refused past the largest value the library was built with. */
#define ASSERT_ENV_ALL(check, name, ...)                                       \
    do {                                                                       \
        static const char *v_[] = { __VA_ARGS__ };                             \
        for (size_t k_ = 0; k_ < sizeof v_ / sizeof *v_; ++k_)                 \
            check(name, v_[k_]);                                               \
    } while (0)

START_TEST(test_errors_env_test_vars)
{
    char over[32];
    ASSERT_ENV_ALL(assert_env_rejected, "FILAMENTS_TEST_CHUNK", "", "1", "0,4", "4,2", "1,", ",4",
                   "1,4x", "1;4", "-1,4", "1,4,8");
    ASSERT_ENV_ALL(assert_env_accepted, "FILAMENTS_TEST_CHUNK", "1,1", "1,4", "256,65535");
    snprintf(over, sizeof over, "1,%d", FI_CHUNK_MAX + 1);
    assert_env_rejected("FILAMENTS_TEST_CHUNK", over);
    ASSERT_ENV_ALL(assert_env_rejected, "FILAMENTS_TEST_FANIN", "", "0", "1", "x", "2x", "-2");
    assert_env_accepted("FILAMENTS_TEST_FANIN", "2");
    snprintf(over, sizeof over, "%d", FI_BARRIER_FANIN + 1);
    assert_env_rejected("FILAMENTS_TEST_FANIN", over);
}
END_TEST

START_TEST(test_errors_env_stats)
{
    static const char *bad[] = { "2", "x", "-1", "", "1x", "yes" };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; ++k)
        assert_env_rejected("FILAMENTS_STATS", bad[k]);
}
END_TEST

START_TEST(test_errors_env_bind)
{
    static const char *bad[] = { "2", "x", "-1", "", "1x", "yes" };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; ++k)
        assert_env_rejected("FILAMENTS_BIND", bad[k]);
    assert_env_accepted("FILAMENTS_BIND", "0");
#ifdef HAVE_PTHREAD_ATTR_SETAFFINITY_NP
    assert_env_accepted("FILAMENTS_BIND", "1");
#else
    assert_env_rejected("FILAMENTS_BIND", "1");  /* no way to bind a thread here */
#endif
}
END_TEST

/* FILAMENTS_STATS=1 prints at f_finalize (to stderr), 0 prints nothing. */
static long stderr_bytes_of_finalize(const char *stats)
{
    ck_assert_int_eq(setenv("FILAMENTS_STATS", stats, 1), 0);
    t_start(3);
    t_assert_library_works();
    FILE *tmp = tmpfile();
    ck_assert_ptr_nonnull(tmp);
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    ck_assert_int_ge(saved, 0);
    ck_assert_int_ge(dup2(fileno(tmp), STDERR_FILENO), 0);
    f_finalize();
    fflush(stderr);
    ck_assert_int_ge(dup2(saved, STDERR_FILENO), 0);
    close(saved);
    struct stat sb;
    ck_assert_int_eq(fstat(fileno(tmp), &sb), 0);
    long bytes = (long)sb.st_size;
    fclose(tmp);
    unsetenv("FILAMENTS_STATS");
    return bytes;
}

START_TEST(test_errors_env_stats_values)
{
    ck_assert_int_gt(stderr_bytes_of_finalize("1"), 0);
    ck_assert_int_eq(stderr_bytes_of_finalize("0"), 0);
}
END_TEST

/* Bad servers and NULL functions, from main and from a filament. */
static int bad_servers[6];

static void make_bad_servers(int n)
{
    int v[] = { -2, n, n + 100, INT_MIN, INT_MAX, -1000 };
    memcpy(bad_servers, v, sizeof v);
}

static void bad_from_filament(long i, long j, void *arg)
{
    for (int k = 0; k < 6; ++k) {
        T_EXPECT(f_rtc_thread(bad_servers[k], count_ran, 0, 0, NULL) == F_EINVAL);
        T_EXPECT(f_rtc_vthread(bad_servers[k], count_ran_v, "") == F_EINVAL);
    }
    T_EXPECT(f_rtc_thread(f_my_server(), NULL, 0, 0, NULL) == F_EINVAL);
    T_EXPECT(f_rtc_thread(F_ANY, NULL, 0, 0, NULL) == F_EINVAL);
    T_EXPECT(f_rtc_thread((f_my_server() + 1) % f_num_servers(), NULL, 0, 0, NULL) == F_EINVAL);
}

START_TEST(test_errors_rtc_einval)
{
    int n = t_start_loop(_i);
    atomic_store(&ran, 0);
    make_bad_servers(n);
    for (int k = 0; k < 6; ++k)
        ck_assert_int_eq(f_rtc_thread(bad_servers[k], count_ran, 0, 0, NULL), F_EINVAL);
    for (int s = -1; s < n; ++s)
        ck_assert_int_eq(f_rtc_thread(s, NULL, 0, 0, NULL), F_EINVAL);
    ck_assert_int_eq(f_parallel(), F_OK);
    ck_assert_int_eq(t_ldl(&ran), 0);
    t_assert_library_works();
    for (int s = 0; s < n; ++s)
        ck_assert_int_eq(f_rtc_thread(s, bad_from_filament, 0, 0, NULL), F_OK);
    ck_assert_int_eq(f_parallel(), F_OK);
    T_ASSERT_NO_FAILURES();
    ck_assert_int_eq(t_ldl(&ran), 0);
    t_assert_library_works();
    /* Valid ones beside the failed ones: exactly the valid ones run. */
    for (int s = -1; s < n; ++s) {
        ck_assert_int_eq(f_rtc_thread(s, count_ran, 0, 0, NULL), F_OK);
        ck_assert_int_eq(f_rtc_thread(s + n + 1, count_ran, 0, 0, NULL), F_EINVAL);
    }
    ck_assert_int_eq(f_parallel(), F_OK);
    ck_assert_int_eq(t_ldl(&ran), n + 1);
}
END_TEST

/* Iterative filaments: no phase yet (F_ESTATE), bad server or function,
 * a row that ends before it begins (F_EINVAL); a failed row creates none of
 * its points, an empty one none either. */
START_TEST(test_errors_iterative)
{
    int n = t_start_loop(_i);
    atomic_store(&ran, 0);
    make_bad_servers(n);
    ck_assert_int_eq(f_iterative_thread(0, count_ran, 0, 0, NULL), F_ESTATE);
    ck_assert_int_eq(f_iterative_thread(F_ANY, count_ran, 0, 0, NULL), F_ESTATE);
    ck_assert_int_eq(f_iterative_row(0, count_ran, 0, 0, 5, NULL), F_ESTATE);
    ck_assert_int_eq(f_iterative_row(F_ANY, count_ran, 0, 5, 0, NULL), F_ESTATE);
    ck_assert_int_eq(f_iterative_vthread(0, count_ran_v, ""), F_ESTATE);
    ck_assert_int_ge(f_new_barrier(seq_done, NULL), 0);
    for (int k = 0; k < 6; ++k) {
        ck_assert_int_eq(f_iterative_thread(bad_servers[k], count_ran, 0, 0, NULL), F_EINVAL);
        ck_assert_int_eq(f_iterative_row(bad_servers[k], count_ran, 0, 0, 5, NULL), F_EINVAL);
        ck_assert_int_eq(f_iterative_row(bad_servers[k], count_ran, 0, 0, 0, NULL), F_EINVAL);
    }
    for (int s = -1; s < n; ++s) {
        ck_assert_int_eq(f_iterative_thread(s, NULL, 0, 0, NULL), F_EINVAL);
        ck_assert_int_eq(f_iterative_row(s, NULL, 0, 0, 5, NULL), F_EINVAL);
        ck_assert_int_eq(f_iterative_row(s, NULL, 0, 3, 3, NULL), F_EINVAL);
        ck_assert_int_eq(f_iterative_row(s, count_ran, 0, 1, 0, NULL), F_EINVAL);
        ck_assert_int_eq(f_iterative_row(s, count_ran, 0, LONG_MAX, LONG_MIN, NULL), F_EINVAL);
        ck_assert_int_eq(f_iterative_row(s, count_ran, 0, 7, 7, NULL), F_OK);
    }
    ck_assert_int_eq(f_iterative_thread(0, count_ran, 0, 0, NULL), F_OK);
    ck_assert_int_eq(f_parallel(), F_OK);
    ck_assert_int_eq(t_ldl(&ran), 1);
    /* The run consumed the phase: none now. */
    ck_assert_int_eq(f_iterative_thread(0, count_ran, 0, 0, NULL), F_ESTATE);
    ck_assert_int_eq(f_iterative_row(0, count_ran, 0, 0, 5, NULL), F_ESTATE);
    ck_assert_int_eq(f_iterative_vthread(0, count_ran_v, ""), F_ESTATE);
    ck_assert_int_eq(f_parallel(), F_OK);
    ck_assert_int_eq(t_ldl(&ran), 1);
    t_assert_library_works();
}
END_TEST

/* Calls that are not allowed from a filament, RTC or iterative. */
enum { IN_PARALLEL, IN_INITIALIZE, IN_BARRIER, IN_ITERATIVE, IN_ITERATIVE_ROW, IN_ITERATIVE_V,
       IN_RANGE, IN_STATS, IN_RESET_STATS, IN_REDUCTION, IN_CONTINUATION, IN_CALLS };
struct inside {
    atomic_int rc[IN_CALLS];
    atomic_int calls;
    atomic_int after_finalize_ok;
};

static void inside_filament(long i, long j, void *arg)
{
    struct inside *in = arg;
    struct f_stats st;
    atomic_store(&in->rc[IN_PARALLEL], f_parallel());
    atomic_store(&in->rc[IN_INITIALIZE], f_initialize(2));
    atomic_store(&in->rc[IN_BARRIER], f_new_barrier(NULL, NULL));
    atomic_store(&in->rc[IN_ITERATIVE], f_iterative_thread(0, count_ran, 0, 0, NULL));
    atomic_store(&in->rc[IN_ITERATIVE_ROW], f_iterative_row(0, count_ran, 0, 0, 4, NULL));
    atomic_store(&in->rc[IN_ITERATIVE_V], f_iterative_vthread(0, count_ran_v, ""));
    atomic_store(&in->rc[IN_RANGE], f_set_range_version(count_ran, range_fn));
    atomic_store(&in->rc[IN_STATS], f_get_stats(F_ANY, &st));
    atomic_store(&in->rc[IN_RESET_STATS], f_reset_stats());
    atomic_store(&in->rc[IN_REDUCTION], f_new_reduction(F_SUM) == NULL ? F_ESTATE : F_OK);
    atomic_store(&in->rc[IN_CONTINUATION], f_new_continuation(8) == NULL ? F_ESTATE : F_OK);
    f_finalize();  /* not from a filament: nothing happens */
    atomic_store(&in->after_finalize_ok, f_num_servers() > 0 && f_my_server() >= 0);
    atomic_fetch_add(&in->calls, 1);
}

static void assert_inside_all_estate(struct inside *in, int times)
{
    ck_assert_int_eq(t_ldi(&in->calls), times);
    for (int k = 0; k < IN_CALLS; ++k) {
        int rc = atomic_load(&in->rc[k]);
        ck_assert_msg(rc == F_ESTATE, "call %d from a filament returned %d, not F_ESTATE", k, rc);
    }
    ck_assert_int_eq(t_ldi(&in->after_finalize_ok), 1);
}

static int two_passes(void *arg)
{
    return ++*(int *)arg == 2 ? F_DONE : F_NOTDONE;
}

START_TEST(test_errors_inside_filament)
{
    int n = t_start_loop(_i);
    atomic_store(&ran, 0);
    struct inside in = { .calls = 0 };
    ck_assert_int_eq(f_rtc_thread(n - 1, inside_filament, 0, 0, &in), F_OK);
    ck_assert_int_eq(f_parallel(), F_OK);
    assert_inside_all_estate(&in, 1);
    ck_assert_int_eq(f_num_servers(), n);
    t_assert_library_works();

    memset(&in, 0, sizeof in);
    int passes = 0;
    ck_assert_int_ge(f_new_barrier(two_passes, &passes), 0);
    ck_assert_int_eq(f_iterative_thread(F_ANY, inside_filament, 0, 0, &in), F_OK);
    ck_assert_int_eq(f_parallel(), F_OK);
    assert_inside_all_estate(&in, 2);
    ck_assert_int_eq(passes, 2);
    ck_assert_int_eq(t_ldl(&ran), 0);
    t_assert_library_works();
    ck_assert_int_eq(t_ldl(&ran), 0);
}
END_TEST

/* Barrier code: no filaments, phases, runs or initialization from there. */
enum { B_RTC_OWN, B_RTC_NEXT, B_RTC_ANY, B_RTC_V, B_ITER, B_ITER_ROW, B_ITER_V, B_BARRIER,
       B_PARALLEL, B_INIT, B_REDUCTION, B_CALLS };
struct in_barrier {
    int rc[B_CALLS];
    int calls;
};

static int barrier_tries(void *arg)
{
    struct in_barrier *b = arg;
    int me = f_my_server(), n = f_num_servers();
    b->rc[B_RTC_OWN] = f_rtc_thread(me, count_ran, 0, 0, NULL);
    b->rc[B_RTC_NEXT] = f_rtc_thread((me + 1) % n, count_ran, 0, 0, NULL);
    b->rc[B_RTC_ANY] = f_rtc_thread(F_ANY, count_ran, 0, 0, NULL);
    b->rc[B_RTC_V] = f_rtc_vthread(me, count_ran_v, "l", 1L);
    b->rc[B_ITER] = f_iterative_thread(me, count_ran, 0, 0, NULL);
    b->rc[B_ITER_ROW] = f_iterative_row(me, count_ran, 0, 0, 4, NULL);
    b->rc[B_ITER_V] = f_iterative_vthread(me, count_ran_v, "");
    b->rc[B_BARRIER] = f_new_barrier(NULL, NULL);
    b->rc[B_PARALLEL] = f_parallel();
    b->rc[B_INIT] = f_initialize(1);
    b->rc[B_REDUCTION] = f_new_reduction(F_MAX) == NULL ? F_ESTATE : F_OK;
    return ++b->calls == 3 ? F_DONE : F_NOTDONE;
}

START_TEST(test_errors_inside_barrier_code)
{
    int n = t_start_loop(_i);
    atomic_store(&ran, 0);
    struct in_barrier b = { .calls = 0 };
    atomic_long iter;
    atomic_init(&iter, 0);
    ck_assert_int_ge(f_new_barrier(barrier_tries, &b), 0);
    for (int s = 0; s < n; ++s)
        ck_assert_int_eq(f_iterative_thread(s, t_count_fn, 0, 0, &iter), F_OK);
    ck_assert_int_eq(f_parallel(), F_OK);
    ck_assert_int_eq(b.calls, 3);
    for (int k = 0; k < B_CALLS; ++k)
        ck_assert_msg(b.rc[k] == F_ESTATE, "call %d in barrier code returned %d, not F_ESTATE", k,
                      b.rc[k]);
    ck_assert_int_eq(t_ldl(&ran), 0);  /* nothing of them ran */
    ck_assert_int_eq(t_ldl(&iter), 3L * n);
    ck_assert_int_eq(f_num_servers(), n);
    t_assert_library_works();
    ck_assert_int_eq(t_ldl(&ran), 0);
}
END_TEST

/* Another thread, started by a filament, calls in while the run goes on:
 * f_parallel inside f_parallel, creation, f_initialize, f_finalize. */
enum { T_PARALLEL, T_RTC, T_RTC_ANY, T_BARRIER, T_INIT, T_STATS, T_MY_SERVER, T_FORK, T_VFORK,
       T_JOIN, T_CALLS };
struct during_run {
    int rc[T_CALLS];
};

static void *during_run_thread(void *arg)
{
    struct during_run *d = arg;
    struct f_stats st;
    d->rc[T_PARALLEL] = f_parallel();
    d->rc[T_RTC] = f_rtc_thread(0, count_ran, 0, 0, NULL);
    d->rc[T_RTC_ANY] = f_rtc_thread(F_ANY, count_ran, 0, 0, NULL);
    d->rc[T_BARRIER] = f_new_barrier(NULL, NULL);
    d->rc[T_INIT] = f_initialize(1);
    d->rc[T_STATS] = f_get_stats(F_ANY, &st);
    d->rc[T_MY_SERVER] = f_my_server();
    d->rc[T_FORK] = f_fork(count_ran, 0, 0, NULL);
    d->rc[T_VFORK] = f_vfork(count_ran_v, "");
    d->rc[T_JOIN] = f_join();
    f_finalize();  /* not now: nothing happens */
    return NULL;
}

static void start_thread_and_wait(long i, long j, void *arg)
{
    pthread_t t;
    T_EXPECT(pthread_create(&t, NULL, during_run_thread, arg) == 0);
    T_EXPECT(pthread_join(t, NULL) == 0);
}

START_TEST(test_errors_other_thread_during_run)
{
    int n = t_start_loop(_i);
    atomic_store(&ran, 0);
    struct during_run d;
    memset(&d, 0, sizeof d);
    ck_assert_int_eq(f_rtc_thread(n - 1, start_thread_and_wait, 0, 0, &d), F_OK);
    ck_assert_int_eq(f_parallel(), F_OK);
    T_ASSERT_NO_FAILURES();
    for (int k = 0; k < T_CALLS; ++k)
        ck_assert_msg(d.rc[k] == F_ESTATE, "call %d from another thread during a run: %d", k,
                      d.rc[k]);
    ck_assert_int_eq(atomic_load(&ran), 0);
    ck_assert_int_eq(f_num_servers(), n);
    t_assert_library_works();
    ck_assert_int_eq(atomic_load(&ran), 0);
}
END_TEST

/* f_my_server outside a filament; f_get_stats and f_set_range_version arguments. */
START_TEST(test_errors_misc_einval)
{
    int n = t_start_loop(_i);
    ck_assert_int_eq(f_my_server(), F_ESTATE);
    struct f_stats st;
    ck_assert_int_eq(f_get_stats(n, &st), F_EINVAL);
    ck_assert_int_eq(f_get_stats(-2, &st), F_EINVAL);
    ck_assert_int_eq(f_get_stats(INT_MAX, &st), F_EINVAL);
    ck_assert_int_eq(f_get_stats(0, NULL), F_EINVAL);
    ck_assert_int_eq(f_get_stats(F_ANY, NULL), F_EINVAL);
    ck_assert_int_eq(f_set_range_version(NULL, range_fn), F_EINVAL);
    ck_assert_int_eq(f_set_range_version(NULL, NULL), F_EINVAL);
    ck_assert_ptr_null(f_new_reduction((enum f_op)3));
    ck_assert_ptr_null(f_new_reduction((enum f_op)-1));
    t_assert_library_works();
}
END_TEST

/* The library never prints on its own: errors, a job, f_finalize (without
 * FILAMENTS_STATS) leave stdout and stderr empty. */
START_TEST(test_errors_never_print)
{
    FILE *tmp = tmpfile();
    ck_assert_ptr_nonnull(tmp);
    fflush(stdout);
    fflush(stderr);
    int out = dup(STDOUT_FILENO), err = dup(STDERR_FILENO);
    ck_assert(out >= 0 && err >= 0);
    ck_assert_int_ge(dup2(fileno(tmp), STDOUT_FILENO), 0);
    ck_assert_int_ge(dup2(fileno(tmp), STDERR_FILENO), 0);
    int rcs[8], k = 0;
    rcs[k++] = f_parallel();
    rcs[k++] = f_initialize(FI_MAX_SERVERS + 1);
    setenv("FILAMENTS_SERVERS", "abc", 1);
    rcs[k++] = f_initialize(0);
    unsetenv("FILAMENTS_SERVERS");
    rcs[k++] = f_initialize(t_servers(_i));
    rcs[k++] = f_rtc_thread(-2, count_ran, 0, 0, NULL);
    rcs[k++] = f_iterative_thread(0, count_ran, 0, 0, NULL);
    rcs[k++] = f_rtc_vthread(0, count_ran_v, "q");
    rcs[k++] = f_initialize(1);
    t_assert_library_works();
    f_finalize();
    fflush(stdout);
    fflush(stderr);
    ck_assert_int_ge(dup2(out, STDOUT_FILENO), 0);
    ck_assert_int_ge(dup2(err, STDERR_FILENO), 0);
    close(out);
    close(err);
    struct stat sb;
    ck_assert_int_eq(fstat(fileno(tmp), &sb), 0);
    fclose(tmp);
    ck_assert_int_eq(sb.st_size, 0);
    int want[8] = { F_ESTATE, F_EINVAL, F_EINVAL, F_OK, F_EINVAL, F_ESTATE, F_EINVAL, F_ESTATE };
    for (k = 0; k < 8; ++k)
        ck_assert_int_eq(rcs[k], want[k]);
}
END_TEST

/* Forks with a NULL function, a NULL sequential version, or a bad format or
 * too many arguments (f_vfork): F_EINVAL from a filament and, for roots,
 * from the main thread; nothing of them runs.  f_join from the main thread,
 * initialized, between runs: F_ESTATE. */
static void bad_forks(void)
{
    T_EXPECT(f_fork(NULL, 0, 0, NULL) == F_EINVAL);
    T_EXPECT(f_fork_seq(NULL, count_ran, 0, 0, NULL) == F_EINVAL);
    T_EXPECT(f_fork_seq(count_ran, NULL, 0, 0, NULL) == F_EINVAL);
    T_EXPECT(f_vfork(NULL, "") == F_EINVAL);
    T_EXPECT(f_vfork(count_ran_v, NULL) == F_EINVAL);
    T_EXPECT(f_vfork(count_ran_v, "x", 1L) == F_EINVAL);
    T_EXPECT(f_vfork(count_ran_v, "lq", 1L, 2L) == F_EINVAL);
    T_EXPECT(f_vfork(count_ran_v, "lllllllll", 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L) == F_EINVAL);
}

static void bad_forks_in_filament(long i, long j, void *arg)
{
    f_frame fr = f_frame_here();
    bad_forks();
    T_EXPECT(f_fork_long(&fr, NULL, 0, 0, NULL) == F_EINVAL);
    T_EXPECT(f_join() == F_OK);  /* nothing was forked: nothing to wait for */
}

START_TEST(test_errors_fork_einval)
{
    int n = t_start_loop(_i);
    atomic_store(&ran, 0);
    bad_forks();
    ck_assert_int_eq(f_join(), F_ESTATE);
    for (int s = 0; s < n; ++s)
        ck_assert_int_eq(f_rtc_thread(s, bad_forks_in_filament, 0, 0, NULL), F_OK);
    ck_assert_int_eq(f_parallel(), F_OK);
    T_ASSERT_NO_FAILURES();
    ck_assert_int_eq(f_join(), F_ESTATE);
    ck_assert_int_eq(t_ldl(&ran), 0);
    t_assert_library_works();
    /* Good roots beside the bad ones: exactly the good ones run. */
    bad_forks();
    ck_assert_int_eq(f_fork(count_ran, 0, 0, NULL), F_OK);
    ck_assert_int_eq(f_vfork(count_ran_v, "lll", 1L, 2L, 3L), F_OK);
    ck_assert_int_eq(f_parallel(), F_OK);
    T_ASSERT_NO_FAILURES();
    ck_assert_int_eq(t_ldl(&ran), 2);
}
END_TEST

/* Locks need no library (f_lock(3)): before f_initialize, in filaments, and
 * after f_finalize, the same lock protects a plain counter. */
struct locked {
    f_lock_t lock;
    long count;
};

static void locked_add(long i, long j, void *arg)
{
    struct locked *l = arg;
    for (long k = 0; k < 1000; ++k) {
        f_lock(&l->lock);
        l->count++;
        f_unlock(&l->lock);
    }
}

START_TEST(test_errors_lock_without_library)
{
    struct locked l = { F_LOCK_INITIALIZER, 0 };
    locked_add(0, 0, &l);
    f_lock_init(&l.lock);
    locked_add(0, 0, &l);
    int n = t_start_loop(_i);
    for (int s = 0; s < n; ++s)
        ck_assert_int_eq(f_rtc_thread(s, locked_add, 0, 0, &l), F_OK);
    ck_assert_int_eq(f_parallel(), F_OK);
    f_finalize();
    locked_add(0, 0, &l);
    ck_assert_int_eq(l.count, 1000L * (n + 3));
    t_start(n);
    t_assert_library_works();
}
END_TEST

/* f_strerror: distinct, non-empty, one line, for every code and for unknown ones. */
START_TEST(test_errors_strerror)
{
    int codes[] = { F_OK, F_EINVAL, F_ENOMEM, F_ESTATE, F_EIO, 12345 };
    const char *text[6];
    for (int k = 0; k < 6; ++k) {
        text[k] = f_strerror(codes[k]);
        ck_assert_ptr_nonnull(text[k]);
        ck_assert_int_gt(strlen(text[k]), 0);
        ck_assert_ptr_null(strchr(text[k], '\n'));
        for (int m = 0; m < k; ++m)
            ck_assert_msg(strcmp(text[k], text[m]) != 0, "f_strerror(%d) == f_strerror(%d): %s",
                          codes[k], codes[m], text[k]);
    }
    int unknown[] = { -99, -5, 1, INT_MIN, INT_MAX, 12345 };
    for (size_t k = 0; k < sizeof unknown / sizeof *unknown; ++k) {
        const char *t = f_strerror(unknown[k]);
        ck_assert_ptr_nonnull(t);
        ck_assert_int_gt(strlen(t), 0);
        for (int m = 0; m < 5; ++m)
            ck_assert_str_ne(t, text[m]);
    }
    ck_assert_int_eq(F_OK, 0);
    ck_assert(F_EINVAL < 0 && F_ENOMEM < 0 && F_ESTATE < 0 && F_EIO < 0);
    ck_assert(F_EINVAL != F_ENOMEM && F_ENOMEM != F_ESTATE && F_EINVAL != F_ESTATE);
    ck_assert(F_EIO != F_EINVAL && F_EIO != F_ENOMEM && F_EIO != F_ESTATE);
}
END_TEST

Suite *make_suite(void)
{
    Suite *s = suite_create("errors");
    TCase *state = t_tcase(s, "errors");
    tcase_add_loop_test(state, test_errors_before_initialize, 0, T_NCOUNTS);
    tcase_add_loop_test(state, test_errors_after_finalize, 0, T_NCOUNTS);
    tcase_add_loop_test(state, test_errors_initialize_twice, 0, T_NCOUNTS);
    tcase_add_test(state, test_errors_initialize_too_many);
    tcase_add_test(state, test_errors_env_servers);
    tcase_add_test(state, test_errors_env_prune);
    tcase_add_test(state, test_errors_env_deque);
    tcase_add_test(state, test_errors_env_test_vars);
    tcase_add_test(state, test_errors_env_stats);
    tcase_add_test(state, test_errors_env_bind);
    tcase_add_test(state, test_errors_env_stats_values);
    tcase_add_loop_test(state, test_errors_rtc_einval, 0, T_NCOUNTS);
    tcase_add_loop_test(state, test_errors_iterative, 0, T_NCOUNTS);
    tcase_add_loop_test(state, test_errors_inside_filament, 0, T_NCOUNTS);
    tcase_add_loop_test(state, test_errors_inside_barrier_code, 0, T_NCOUNTS);
    tcase_add_loop_test(state, test_errors_misc_einval, 0, T_NCOUNTS);
    tcase_add_loop_test(state, test_errors_other_thread_during_run, 0, T_NCOUNTS);
    tcase_add_loop_test(state, test_errors_fork_einval, 0, T_NCOUNTS);
    tcase_add_loop_test(state, test_errors_lock_without_library, 0, T_NCOUNTS);
    tcase_add_test(state, test_errors_strerror);
    tcase_add_loop_test(state, test_errors_never_print, 0, T_NCOUNTS);
    return s;
}
