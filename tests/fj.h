/*
 * fj.h - what the fork/join suites share (check_deque, check_forkjoin,
 * check_prune): the server counts every test runs at, a seeded generator,
 * failing from a filament, a deadlock detector, and FJ_ADD.  Include it
 * first: it asks for POSIX (threads, clocks, setenv) under -std=c11.
 *
 * A loop test's index picks the server count, 1, 2, 4 or 8 in turn (8
 * oversubscribes a small machine on purpose), and the rest of it (i / 4)
 * is the test's seed or variant.
 */
#ifndef FJ_H
#define FJ_H

#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <check.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <filaments.h>

#include "tests.h"    /* t_servers_cap: at most 2 servers under valgrind (T_SCALE) */

/* Generous: a deadlock fails the test instead of hanging make check. */
#define FJ_TIMEOUT 120

/* After every test, f_finalize() and FILAMENTS_PRUNE and FILAMENTS_DEQUE
 * unset: the next test, in this process under CK_FORK=no, starts clean. */
static inline void fj_teardown(void)
{
    f_finalize();
    unsetenv("FILAMENTS_PRUNE");
    unsetenv("FILAMENTS_DEQUE");
}

/* A test case of the suite s with fj_teardown and the deadlock timeout. */
static inline TCase *fj_tcase(Suite *s, const char *name)
{
    TCase *tc = tcase_create(name);
    tcase_set_tags(tc, name);    /* CK_EXCLUDE_TAGS=stress, as t_tcase */
    tcase_add_checked_fixture(tc, NULL, fj_teardown);
    tcase_set_timeout(tc, FJ_TIMEOUT);
    suite_add_tcase(s, tc);
    return tc;
}

static inline int fj_servers(int i)
{
    return t_servers_cap(1 << (i & 3));
}

static inline int fj_variant(int i)
{
    return i >> 2;
}

/* splitmix64: one well-mixed word from any word. */
static inline uint64_t fj_mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15u;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
    return x ^ (x >> 31);
}

/*
 * Fail the test from any thread, filaments included.  A passing ck_assert
 * writes its location to Check's pipe, too slow for a filament, so
 * filaments check with FJ_REQUIRE, which costs nothing when it holds.  The
 * first failure ends the test's process (Check's fork mode exits); a second
 * failing thread waits for that instead of exiting at the same time.
 * Under CK_FORK=no a failure in a server thread cannot be reported.
 */
static inline void fj_fail(const char *file, int line, const char *what)
{
    static atomic_flag failing = ATOMIC_FLAG_INIT;
    if (atomic_flag_test_and_set(&failing))
        for (;;)
            pause();
    ck_abort_msg("%s:%d: %s", file, line, what);
}

#define FJ_REQUIRE(x)                                                                          \
    do {                                                                                       \
        if (!(x))                                                                              \
            fj_fail(__FILE__, __LINE__, #x);                                                   \
    } while (0)

/*
 * A deadlock detector for tests that deadlock while a known bug stands:
 * fails the test with `what` if fj_watchdog_stop() has not been called
 * within `seconds` (many times the test's run time, even under
 * ThreadSanitizer), instead of letting it wait for the case's timeout.
 */
struct fj_watchdog {
    pthread_t thread;
    pthread_mutex_t mutex;
    pthread_cond_t cond;
    int stopped;
    int seconds;
    const char *what;
};

static inline void *fj_watchdog_main(void *arg)
{
    struct fj_watchdog *w = arg;
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += w->seconds;
    pthread_mutex_lock(&w->mutex);
    int rc = 0;
    while (!w->stopped && rc == 0)
        rc = pthread_cond_timedwait(&w->cond, &w->mutex, &until);
    int stopped = w->stopped;
    pthread_mutex_unlock(&w->mutex);
    if (!stopped)
        fj_fail(__FILE__, __LINE__, w->what);
    return NULL;
}

static inline void fj_watchdog_start(struct fj_watchdog *w, int seconds, const char *what)
{
    pthread_mutex_init(&w->mutex, NULL);
    pthread_cond_init(&w->cond, NULL);
    w->stopped = 0;
    w->seconds = seconds;
    w->what = what;
    ck_assert_int_eq(pthread_create(&w->thread, NULL, fj_watchdog_main, w), 0);
}

static inline void fj_watchdog_stop(struct fj_watchdog *w)
{
    pthread_mutex_lock(&w->mutex);
    w->stopped = 1;
    pthread_cond_signal(&w->cond);
    pthread_mutex_unlock(&w->mutex);
    pthread_join(w->thread, NULL);
    pthread_cond_destroy(&w->cond);
    pthread_mutex_destroy(&w->mutex);
}

/*
 * f_parallel under a watchdog: a deadlock fails the test after
 * FJ_DEADLOCK_S seconds (times $CK_TIMEOUT_MULTIPLIER, as Check scales its
 * timeouts) with a message that says so, well before the case's timeout.
 */
#define FJ_DEADLOCK_S 30

static inline int fj_parallel_within(int seconds)
{
    const char *m = getenv("CK_TIMEOUT_MULTIPLIER");
    double scale = m != NULL && atof(m) > 0 ? atof(m) : 1.0;
    seconds = (int)(seconds * scale + 0.5);
    struct fj_watchdog w;
    fj_watchdog_start(&w, seconds > 0 ? seconds : 1,
                      "deadlock: f_parallel has not returned in time");
    int rc = f_parallel();
    fj_watchdog_stop(&w);
    return rc;
}

static inline int fj_parallel(void)
{
    return fj_parallel_within(FJ_DEADLOCK_S);
}

/* Start fj_servers(i) servers, as the test's first step. */
#define FJ_START(i) ck_assert_int_eq(f_initialize(fj_servers(i)), F_OK)

/* A busy loop the compiler keeps: gives thieves time to steal. */
static inline void fj_spin(int n)
{
    for (volatile int k = 0; k < n; ++k)
        ;
}

/* tcase_add_loop_test, unless $FJ_ONLY names another test: FJ_ONLY=name
 * runs that test alone (with CK_RUN_CASE set to its case), and FJ_LOOP=n
 * only its loop index n (the failure messages end with the index).
 * Where the server count is capped (T_SCALE: valgrind's stage), an index
 * whose count the cap makes that of the index before it, of the same
 * variant, would run the test again as that one did (at most a seed taken
 * from the index differs): it is left out, half of each group of four. */
static inline void fj_add(TCase *tc, const TTest *test, const char *name, int start, int end)
{
    const char *only = getenv("FJ_ONLY"), *loop = getenv("FJ_LOOP");
    if (only != NULL && strcmp(only, name) != 0)
        return;
    if (loop != NULL) {
        int n = atoi(loop);
        if (n >= start && n < end)
            tcase_add_loop_test(tc, test, n, n + 1);
        return;
    }
    for (int i = start; i < end; ++i)
        if (i == start || fj_variant(i) != fj_variant(i - 1) || fj_servers(i) != fj_servers(i - 1))
            tcase_add_loop_test(tc, test, i, i + 1);
}
#define FJ_ADD(tc, test, start, end) fj_add((tc), (test), #test, (start), (end))

#endif /* FJ_H */
