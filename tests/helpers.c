/*
 * helpers.c - the shared test helpers declared in tests.h.
 */
#define _POSIX_C_SOURCE 200809L
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tests.h"

const int t_counts[T_NCOUNTS] = { 1, 2, 3, 4, 8 };

/* ------------------------------------------------------------ servers */

int t_servers_cap(int n)
{
    return t_scaled_down() && n > 2 ? 2 : n;
}

int t_servers(int loop_index)
{
    return t_servers_cap(t_counts[loop_index % T_NCOUNTS]);
}

int t_start(int n)
{
    t_clear_failures();
    int rc = f_initialize(n);
    ck_assert_msg(rc == F_OK, "f_initialize(%d) = %d (%s)", n, rc, f_strerror(rc));
    ck_assert_int_eq(f_num_servers(), n);
    return n;
}

int t_start_loop(int loop_index)
{
    return t_start(t_servers(loop_index));
}

static void teardown(void)
{
    f_finalize();
    unsetenv("FILAMENTS_SERVERS");
    unsetenv("FILAMENTS_PRUNE");
    unsetenv("FILAMENTS_STATS");
    unsetenv("FILAMENTS_BIND");
    unsetenv("FILAMENTS_TRACE");
    unsetenv("FILAMENTS_TRACE_EVENTS");
    unsetenv("FILAMENTS_TEST_CHUNK");
    unsetenv("FILAMENTS_TEST_FANIN");
    unsetenv("FILAMENTS_ADAPT");
    unsetenv("FILAMENTS_TEST_MOVES");
}

static void setup(void)
{
    teardown();
    t_clear_failures();
}

TCase *t_tcase(Suite *s, const char *name)
{
    TCase *tc = tcase_create(name);
    /* Tagged with its name: CK_EXCLUDE_TAGS=stress leaves out every suite's
     * stress case (scripts/run-tests does so under valgrind). */
    tcase_set_tags(tc, name);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    suite_add_tcase(s, tc);
    return tc;
}

/* ------------------------------------------- expectations in filaments */

static atomic_long failures;
static char first_failure[256];
static atomic_flag first_taken = ATOMIC_FLAG_INIT;
static atomic_int first_ready;

void t_expect_failed(const char *what, const char *file, int line)
{
    if (atomic_fetch_add(&failures, 1) == 0 && !atomic_flag_test_and_set(&first_taken)) {
        snprintf(first_failure, sizeof first_failure, "%s:%d: %s", file, line, what);
        atomic_store(&first_ready, 1);
    }
}

long t_failures(void)
{
    return atomic_load(&failures);
}

const char *t_first_failure(void)
{
    return atomic_load(&first_ready) ? first_failure : "(none)";
}

void t_clear_failures(void)
{
    atomic_store(&failures, 0);
    atomic_store(&first_ready, 0);
    atomic_flag_clear(&first_taken);
    first_failure[0] = '\0';
}

/* ---------------------------------------------------------- recorders */

struct t_record *t_record_new(long n)
{
    struct t_record *r = malloc(sizeof *r);
    ck_assert_ptr_nonnull(r);
    r->n = n;
    r->runs = calloc((size_t)n + 1, sizeof *r->runs);
    r->server = malloc(((size_t)n + 1) * sizeof *r->server);
    ck_assert_ptr_nonnull(r->runs);
    ck_assert_ptr_nonnull(r->server);
    for (long k = 0; k < n; ++k) {
        atomic_init(&r->runs[k], 0);
        r->server[k] = -100;
    }
    return r;
}

void t_record_free(struct t_record *r)
{
    free(r->runs);
    free(r->server);
    free(r);
}

void t_record_hit(struct t_record *r, long k)
{
    T_EXPECT(k >= 0 && k < r->n);
    if (k < 0 || k >= r->n)
        return;
    atomic_fetch_add(&r->runs[k], 1);
    r->server[k] = f_my_server();
}

void t_record_assert_runs(const struct t_record *r, int times)
{
    for (long k = 0; k < r->n; ++k)
        if (atomic_load(&r->runs[k]) != times)
            ck_abort_msg("filament %ld ran %d times, not %d", k, atomic_load(&r->runs[k]), times);
}

void t_record_fn(long i, long j, void *arg)
{
    t_record_hit(arg, i);
}

struct t_logs *t_logs_new(int nservers, size_t cap)
{
    struct t_logs *l = malloc(sizeof *l);
    ck_assert_ptr_nonnull(l);
    l->nservers = nservers;
    l->cap = cap;
    l->len = calloc((size_t)nservers, sizeof *l->len);
    l->v = calloc((size_t)nservers, sizeof *l->v);
    ck_assert_ptr_nonnull(l->len);
    ck_assert_ptr_nonnull(l->v);
    for (int s = 0; s < nservers; ++s) {
        l->v[s] = malloc(cap * sizeof **l->v);
        ck_assert_ptr_nonnull(l->v[s]);
    }
    return l;
}

void t_logs_free(struct t_logs *l)
{
    for (int s = 0; s < l->nservers; ++s)
        free(l->v[s]);
    free(l->v);
    free(l->len);
    free(l);
}

void t_logs_clear(struct t_logs *l)
{
    for (int s = 0; s < l->nservers; ++s)
        l->len[s] = 0;
}

void t_log(struct t_logs *l, long v)
{
    int s = f_my_server();
    T_EXPECT(s >= 0 && s < l->nservers);
    if (s < 0 || s >= l->nservers)
        return;
    T_EXPECT(l->len[s] < l->cap);
    if (l->len[s] < l->cap)
        l->v[s][l->len[s]++] = v;
}

/* ------------------------------------------------------------- misc */

int t_wait_flag(atomic_int *flag)
{
    /* Up to about 30 s; a healthy library sets the flag in microseconds. */
    struct timespec pause = { 0, 100000 };
    for (long k = 0; k < 300000; ++k) {
        if (atomic_load(flag))
            return 1;
        if (k < 1000)
            sched_yield();
        else
            nanosleep(&pause, NULL);
    }
    return atomic_load(flag) != 0;
}

long t_scaled(long n)
{
    const char *v = getenv("T_SCALE");
    char *end;
    long pct = v != NULL ? strtol(v, &end, 10) : 100;
    if (v != NULL && (*end != '\0' || end == v || pct < 1 || pct > 100)) {
        fprintf(stderr, "T_SCALE=%s: expected a percentage, 1 .. 100\n", v);
        exit(EXIT_FAILURE);  /* also called from make_suite, outside any test */
    }
    long scaled = n * pct / 100;
    return scaled > 0 ? scaled : 1;
}

int t_scaled_down(void)
{
    return t_scaled(100) < 100;
}

void t_work(long units)
{
    volatile unsigned long x = 1;
    for (long k = 0; k < units; ++k)
        x = x * 6364136223846793005UL + 1442695040888963407UL;
}

void t_count_fn(long i, long j, void *arg)
{
    atomic_fetch_add((atomic_long *)arg, 1);
}

/* The small correct job of t_assert_library_works. */
struct works_job {
    atomic_long rtc, iter;
    long seq_calls;
    f_reduction *sum;
    long bad_seq;
};

static void works_iter(long i, long j, void *arg)
{
    struct works_job *w = arg;
    atomic_fetch_add(&w->iter, 1);
    f_reduce(w->sum, (double)i);
}

static int works_seq(void *arg)
{
    struct works_job *w = arg;
    ++w->seq_calls;
    return w->seq_calls == 3 ? F_DONE : F_NOTDONE;
}

void t_assert_library_works(void)
{
    int n = f_num_servers();
    ck_assert_msg(n >= 1, "f_num_servers() = %d: not initialized", n);
    struct works_job w = { .seq_calls = 0 };
    atomic_init(&w.rtc, 0);
    atomic_init(&w.iter, 0);
    w.sum = f_new_reduction(F_SUM);
    ck_assert_ptr_nonnull(w.sum);
    long want_rtc = 0;
    for (int s = 0; s < n; ++s)
        for (int k = 0; k < 50; ++k, ++want_rtc)
            T_REQUIRE_EQ(f_rtc_thread(s, t_count_fn, k, 0, &w.rtc), F_OK);
    for (int k = 0; k < 300; ++k, ++want_rtc)
        T_REQUIRE_EQ(f_rtc_thread(F_ANY, t_count_fn, k, 0, &w.rtc), F_OK);
    ck_assert_int_ge(f_new_barrier(works_seq, &w), 0);
    long per_pass = 0;
    double sum_per_pass = 0;
    for (int s = 0; s < n; ++s)
        for (long i = 1; i <= 4; ++i, ++per_pass) {
            ck_assert_int_eq(f_iterative_thread(s, works_iter, i, s, &w), F_OK);
            sum_per_pass += (double)i;
        }
    ck_assert_int_eq(f_parallel(), F_OK);
    ck_assert_int_eq(t_ldl(&w.rtc), want_rtc);
    ck_assert_int_eq(w.seq_calls, 3);
    ck_assert_int_eq(t_ldl(&w.iter), 3 * per_pass);
    ck_assert(f_reduction_value(w.sum) == 3 * sum_per_pass);
    f_free_reduction(w.sum);
}
