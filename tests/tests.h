/*
 * tests.h - what the Check suites share: the server counts every test runs
 * at, starting and stopping servers, recorders of which server ran what, and
 * a way for filaments to report a broken expectation (Check's assertions
 * belong to the main thread; servers count failures and main asserts none).
 *
 * Every tests/check_<mechanism> program links tests/runner.c (main) and
 * tests/helpers.c, and defines make_suite().
 */
#ifndef TESTS_H
#define TESTS_H

#include <check.h>
#include <stdatomic.h>
#include <stddef.h>

#include <filaments.h>

Suite *make_suite(void);

/* ------------------------------------------------------------ servers */

/* Every test that uses servers runs at each of these counts (the machine
 * has 2 cores: 8 is oversubscribed on purpose).  A loop test's index picks
 * one: tcase_add_loop_test(tc, test, 0, T_NCOUNTS). */
#define T_NCOUNTS 5
extern const int t_counts[T_NCOUNTS];
/* t_counts[loop_index % T_NCOUNTS]; at most 2 when T_SCALE (below) is under
 * 100: valgrind runs one thread at a time, so more servers there add time
 * and no coverage of memory errors. */
int t_servers(int loop_index);
/* n, or 2 if n is more and T_SCALE is under 100 (the cap above). */
int t_servers_cap(int n);

/* f_initialize(n), asserting success and f_num_servers() == n; clears the
 * failure count below.  Returns n. */
int t_start(int n);
/* t_start(t_servers(loop_index)). */
int t_start_loop(int loop_index);

/* A test case with the suite's conventions: timeout 120 s (a deadlock fails,
 * it does not hang), a checked teardown that calls f_finalize() and clears
 * the FILAMENTS_* variables, so CK_FORK=no runs start clean, and its name as
 * its tag (CK_EXCLUDE_TAGS=stress). */
TCase *t_tcase(Suite *s, const char *name);

/* Check's ck_assert_* record their location on every call (a write per
 * assertion); in loops of many thousands these fail only when they must. */
#define T_REQUIRE(cond)                                                        \
    do {                                                                       \
        if (!(cond))                                                           \
            ck_abort_msg("%s:%d: %s", __FILE__, __LINE__, #cond);              \
    } while (0)
#define T_REQUIRE_EQ(a, b)                                                     \
    do {                                                                       \
        long t_a_ = (long)(a), t_b_ = (long)(b);                               \
        if (t_a_ != t_b_)                                                      \
            ck_abort_msg("%s:%d: %s == %s: %ld != %ld", __FILE__, __LINE__, #a, #b, t_a_, t_b_); \
    } while (0)

/* ------------------------------------------- expectations in filaments */

/* T_EXPECT(cond) in a filament or in barrier code: counts a failure and keeps
 * the first one's text.  T_ASSERT_NO_FAILURES() in the test, after
 * f_parallel, turns them into a Check failure. */
#define T_EXPECT(cond) ((cond) ? (void)0 : t_expect_failed(#cond, __FILE__, __LINE__))
void t_expect_failed(const char *what, const char *file, int line);
long t_failures(void);
const char *t_first_failure(void);
void t_clear_failures(void);
#define T_ASSERT_NO_FAILURES()                                                 \
    ck_assert_msg(t_failures() == 0, "%ld failed expectations in filaments; first: %s", \
                  t_failures(), t_first_failure())

/* ---------------------------------------------------------- recorders */

/* Which server ran filament k, and how many times it ran. */
struct t_record {
    long n;
    atomic_int *runs;
    int *server;  /* written by the server that runs k; read after f_parallel */
};
struct t_record *t_record_new(long n);
void t_record_free(struct t_record *r);
/* In a filament: k ran here (k out of range counts as a failure). */
void t_record_hit(struct t_record *r, long k);
/* Every filament ran exactly `times` times (asserts). */
void t_record_assert_runs(const struct t_record *r, int times);
/* f_func that records filament i in the t_record passed as arg. */
void t_record_fn(long i, long j, void *arg);

/* Per-server logs of values, in the order each server appended them. */
struct t_logs {
    int nservers;
    size_t cap;
    size_t *len;
    long **v;
};
struct t_logs *t_logs_new(int nservers, size_t cap);
void t_logs_free(struct t_logs *l);
void t_logs_clear(struct t_logs *l);
/* In a filament: append v to the calling server's log. */
void t_log(struct t_logs *l, long v);

/* Atomic loads as functions, so that a failed ck_assert prints the
 * expression as written (atomic_load is a macro and would be expanded). */
static inline long t_ldi(atomic_int *p) { return atomic_load(p); }
static inline long t_ldl(atomic_long *p) { return atomic_load(p); }

/* ------------------------------------------------------------- misc */

/* Wait, yielding, until *flag != 0; gives up after a generous bound (a
 * safety net, not a measurement).  Returns whether the flag was seen set. */
int t_wait_flag(atomic_int *flag);

/* n scaled by $T_SCALE percent (1 .. 100; default 100), at least 1: the
 * long loops of the suites read it, so that a run under valgrind
 * (scripts/run-tests sets T_SCALE) covers every path in reasonable time. */
long t_scaled(long n);

/* Is the run scaled down ($T_SCALE under 100), as scripts/run-tests runs
 * the suites under valgrind?  Such a run skips what it cannot afford (a
 * thousand threads) and the bounds that hold only where threads run at
 * the same time (valgrind runs one at a time). */
int t_scaled_down(void);

/* Burn some CPU (a result the compiler cannot drop). */
void t_work(long units);

/* Run a small correct job (RTC filaments on every server and F_ANY, a phase
 * of three passes, a reduction) and assert its results: the library works. */
void t_assert_library_works(void);

/* An f_func that adds 1 to the atomic_long its arg points to. */
void t_count_fn(long i, long j, void *arg);

#endif /* TESTS_H */
