/*
 * check_alloc.c - suite "alloc": failure injection (white-box, through
 * fi_alloc_fail_reset in lib/memory.c).  For k = 1, 2, 3, ... the k-th
 * library allocation from now fails, until a representative program runs
 * with no failure.  The failing call returns F_ENOMEM (NULL for the calls
 * that return pointers) and creates nothing: every filament whose creation
 * succeeded runs exactly as often as it should, and no other.  Afterwards
 * the library works normally.  Run once under valgrind for leaks:
 *   CK_FORK=no libtool --mode=execute valgrind --leak-check=full \
 *       --error-exitcode=1 tests/check_alloc
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "memory.h"
#include "tests.h"

/* Filaments created by the program, by kind. */
enum { N_PINNED0 = 300, N_PINNED1 = 20, N_ANY = 40, N_VRTC = 10, N_RTC =
       N_PINNED0 + N_PINNED1 + N_ANY + N_VRTC };
enum { ROWS = 6, COLS = 10, SINGLES = 40, N_ITER = ROWS * COLS + SINGLES, N_VITER = 4 };
enum { PASSES_A = 3, PASSES_B = 2 };

struct prog {
    struct t_record *rtc;     /* by RTC number */
    struct t_record *iter;    /* by iterative number (points, singles, vararg) */
    int rtc_ok[N_RTC];
    int iter_ok[N_ITER + N_VITER];
    int in_b[N_ITER + N_VITER];  /* created in phase B */
    f_reduction *sum;
    double want_sum_per_a;       /* per pass of phase A */
    f_continuation *cont;
    long seq_calls;
    atomic_long range_calls;
    int failures;
};

static struct prog *P;

static void p_rtc(long k, long j, void *arg)
{
    t_record_hit(P->rtc, k);
}

static void p_vrtc(const f_value *a)
{
    T_EXPECT(a[1].d == 0.5 * (double)a[0].l && a[2].p == P);
    t_record_hit(P->rtc, a[0].l);
}

/* Row points (range version) and singles of phase A or B; they reduce and
 * use the continuation when those exist. */
static void p_point(long row, long j, void *arg)
{
    long k = row * COLS + j;
    t_record_hit(P->iter, k);
    if (P->sum != NULL)
        f_reduce(P->sum, (double)k);
    if (P->cont != NULL)
        *(long *)f_continuation_local(P->cont) += 1;
}

static void p_range(long row, long jb, long je, void *arg)
{
    atomic_fetch_add(&P->range_calls, 1);
    for (long j = jb; j < je; ++j)
        p_point(row, j, arg);
}

static void p_single(long k, long j, void *arg)
{
    t_record_hit(P->iter, k);
}

static void p_viter(const f_value *a)
{
    t_record_hit(P->iter, a[0].l);
}

static int p_seq(void *arg)
{
    return ++P->seq_calls == PASSES_A ? F_DONE : F_NOTDONE;
}

/* A call's result: F_OK, or the one injected failure. */
static int ok(int rc)
{
    if (rc == F_OK)
        return 1;
    ck_assert_msg(rc == F_ENOMEM, "a call returned %d (%s), not F_ENOMEM", rc, f_strerror(rc));
    P->failures++;
    return 0;
}

static int ok_ptr(const void *p)
{
    if (p != NULL)
        return 1;
    P->failures++;
    return 0;
}

/*
 * The representative program, with the k-th allocation failing (0: none).
 * Returns how many calls failed.
 */
static int run_program(long k)
{
    struct prog *p = calloc(1, sizeof *p);
    ck_assert_ptr_nonnull(p);
    P = p;
    p->rtc = t_record_new(N_RTC);
    p->iter = t_record_new(N_ITER + N_VITER);
    atomic_init(&p->range_calls, 0);
    t_clear_failures();

    fi_alloc_fail_reset(k);
    int rc = f_initialize(2);
    if (rc != F_OK) {
        fi_alloc_fail_reset(0);
        ck_assert_int_eq(rc, F_ENOMEM);
        ck_assert_int_eq(f_num_servers(), F_ESTATE);
        t_record_free(p->rtc);
        t_record_free(p->iter);
        free(p);
        return 1;
    }

    /* RTC filaments: past the first chunk on server 0, some on 1, F_ANY, vararg. */
    long r = 0;
    for (; r < N_PINNED0; ++r)
        p->rtc_ok[r] = ok(f_rtc_thread(0, p_rtc, r, 0, NULL));
    for (; r < N_PINNED0 + N_PINNED1; ++r)
        p->rtc_ok[r] = ok(f_rtc_thread(1, p_rtc, r, 0, NULL));
    for (; r < N_PINNED0 + N_PINNED1 + N_ANY; ++r)
        p->rtc_ok[r] = ok(f_rtc_thread(F_ANY, p_rtc, r, 0, NULL));
    for (; r < N_RTC; ++r)
        p->rtc_ok[r] = ok(f_rtc_vthread((int)(r % 3) - 1, p_vrtc, "ldp", r, 0.5 * (double)r,
                                        (void *)p));

    /* A reduction and a continuation, before the phases that use them. */
    p->sum = f_new_reduction(F_SUM);
    ok_ptr(p->sum);
    p->cont = f_new_continuation(sizeof(long));
    ok_ptr(p->cont);
    int range_ok = ok(f_set_range_version(p_point, p_range));

    /* Phase A (its seq ends the run): rows of points on both servers, and
     * singles enough to grow the run arrays.  Phase B (NULL seq): vararg. */
    int a_ok = ok(f_new_barrier(p_seq, NULL) >= 0 ? F_OK : F_ENOMEM);
    if (a_ok) {
        long it = 0;
        for (long row = 0; row < ROWS; ++row)
            for (long j = 0; j < COLS; ++j, ++it)
                if ((p->iter_ok[it] = ok(f_iterative_thread((int)(row % 2), p_point, row, j,
                                                            NULL))))
                    p->want_sum_per_a += (double)it;
        for (; it < N_ITER; ++it)
            p->iter_ok[it] = ok(f_iterative_thread(it % 3 ? (int)(it % 2) : F_ANY, p_single, it,
                                                   0, NULL));
        int b_ok = ok(f_new_barrier(NULL, NULL) >= 0 ? F_OK : F_ENOMEM);
        if (b_ok)
            for (; it < N_ITER + N_VITER; ++it) {
                p->iter_ok[it] = ok(f_iterative_vthread((int)(it % 3) - 1, p_viter, "l", it));
                p->in_b[it] = 1;
            }
    }

    rc = f_parallel();
    ck_assert_int_eq(rc, F_OK);
    T_ASSERT_NO_FAILURES();

    /* Exactly the filaments that were created ran, as often as they should. */
    for (long q = 0; q < N_RTC; ++q)
        ck_assert_msg(t_ldi(&p->rtc->runs[q]) == p->rtc_ok[q],
                      "k=%ld: RTC filament %ld (created: %d) ran %d times", k, q, p->rtc_ok[q],
                      atomic_load(&p->rtc->runs[q]));
    for (long q = 0; q < N_ITER + N_VITER; ++q) {
        int want = p->iter_ok[q] ? (p->in_b[q] ? PASSES_B : PASSES_A) : 0;
        ck_assert_msg(t_ldi(&p->iter->runs[q]) == want,
                      "k=%ld: iterative filament %ld (created: %d) ran %d times, not %d", k, q,
                      p->iter_ok[q], atomic_load(&p->iter->runs[q]), want);
    }
    if (a_ok)
        ck_assert_int_eq(p->seq_calls, PASSES_A);
    if (p->sum != NULL)
        ck_assert(f_reduction_value(p->sum) == PASSES_A * p->want_sum_per_a);
    if (p->cont != NULL && a_ok) {
        long points = 0;
        for (long q = 0; q < ROWS * COLS; ++q)
            points += p->iter_ok[q];
        long in_blocks = *(long *)f_continuation_of(p->cont, 0) +
                         *(long *)f_continuation_of(p->cont, 1);
        ck_assert_int_eq(in_blocks, PASSES_A * points);
    }
    if (!range_ok)
        ck_assert_int_eq(t_ldl(&p->range_calls), 0);
    else if (a_ok)
        ck_assert_int_gt(t_ldl(&p->range_calls), 0);

    f_finalize();
    fi_alloc_fail_reset(0);
    int failures = p->failures;
    t_record_free(p->rtc);
    t_record_free(p->iter);
    free(p);
    return failures;
}

/*
 * Each allocation of the program fails in turn: exactly one call fails for
 * every k up to the program's number of allocations, none after (a k with
 * no failure followed by one with a failure would be an allocation whose
 * failure was swallowed).
 */
START_TEST(test_alloc_each_allocation_fails)
{
    long k = 1;
    for (;; ++k) {
        int failures = run_program(k);
        ck_assert_msg(failures <= 1, "k=%ld: %d calls failed", k, failures);
        /* The library works normally after the failure. */
        t_start(2);
        t_assert_library_works();
        f_finalize();
        if (failures == 0)
            break;
        ck_assert_msg(k < 10000, "the program never ran without a failure");
    }
    /* k allocations succeeded: the next few k fail nothing either. */
    for (long more = k + 1; more < k + 20; ++more)
        ck_assert_msg(run_program(more) == 0, "k=%ld fails after k=%ld did not", more, k);
    ck_assert_int_eq(run_program(0), 0);
    ck_assert_int_gt(k, 20);
}
END_TEST

/* f_initialize at every server count: each of its allocations fails in turn. */
START_TEST(test_alloc_initialize)
{
    int n = t_servers(_i);
    long k = 1;
    for (;; ++k) {
        fi_alloc_fail_reset(k);
        int rc = f_initialize(n);
        fi_alloc_fail_reset(0);
        if (rc == F_OK)
            break;
        ck_assert_int_eq(rc, F_ENOMEM);
        ck_assert_int_eq(f_num_servers(), F_ESTATE);
        t_start(n);
        t_assert_library_works();
        f_finalize();
    }
    ck_assert_int_eq(f_num_servers(), n);
    t_assert_library_works();
    ck_assert_int_ge(k, 2);
}
END_TEST

/*
 * Allocations that fail inside a run: filaments on every server create
 * filaments past a chunk on their own server, on the next one (its inbox)
 * and F_ANY.  The order of the servers' allocations varies, so only this
 * holds: at most one creation fails, and every filament whose creation
 * succeeded runs exactly once, and no other.
 */
enum { PER_KIND = 300, KINDS = 3 };

struct in_run {
    int n;
    struct t_record *r;   /* [server][kind][k] */
    atomic_int *created;
    atomic_int failed, other_rc;
};

static long in_run_id(int s, int kind, long k)
{
    return ((long)s * KINDS + kind) * PER_KIND + k;
}

static void in_run_maker(long s, long j, void *arg)
{
    struct in_run *ir = arg;
    int to[KINDS] = { (int)s, (int)((s + 1) % ir->n), F_ANY };
    for (long k = 0; k < PER_KIND; ++k)
        for (int kind = 0; kind < KINDS; ++kind) {
            long id = in_run_id((int)s, kind, k);
            int rc = f_rtc_thread(to[kind], t_record_fn, id, 0, ir->r);
            if (rc == F_OK)
                atomic_store(&ir->created[id], 1);
            else if (rc == F_ENOMEM)
                atomic_fetch_add(&ir->failed, 1);
            else
                atomic_fetch_add(&ir->other_rc, 1);
        }
}

START_TEST(test_alloc_during_run)
{
    int n = t_start_loop(_i);
    int clean = 0;
    for (long k = 1; k < 400 && clean < 10; ++k) {
        struct in_run ir = { .n = n };
        ir.r = t_record_new((long)n * KINDS * PER_KIND);
        ir.created = calloc((size_t)ir.r->n, sizeof *ir.created);
        ck_assert_ptr_nonnull(ir.created);
        atomic_init(&ir.failed, 0);
        atomic_init(&ir.other_rc, 0);
        for (int s = 0; s < n; ++s)
            ck_assert_int_eq(f_rtc_thread(s, in_run_maker, s, 0, &ir), F_OK);
        fi_alloc_fail_reset(k);
        ck_assert_int_eq(f_parallel(), F_OK);
        fi_alloc_fail_reset(0);
        T_ASSERT_NO_FAILURES();
        ck_assert_int_eq(t_ldi(&ir.other_rc), 0);
        ck_assert_int_le(t_ldi(&ir.failed), 1);
        clean = atomic_load(&ir.failed) ? 0 : clean + 1;
        for (long id = 0; id < ir.r->n; ++id)
            if (atomic_load(&ir.r->runs[id]) != atomic_load(&ir.created[id]))
                ck_abort_msg("k=%ld: filament %ld created %d, ran %d times", k, id,
                             atomic_load(&ir.created[id]), atomic_load(&ir.r->runs[id]));
        free(ir.created);
        t_record_free(ir.r);
        t_assert_library_works();
    }
    ck_assert_int_eq(clean, 10);
}
END_TEST

/* f_malloc: cache-line aligned, whatever the size; NULL when memory cannot
 * be had (huge sizes, or an injected failure); f_free(NULL) is harmless.
 * It needs no f_initialize. */
START_TEST(test_alloc_f_malloc)
{
    static const size_t sizes[] = { 0, 1, 7, 63, 64, 65, 4096, 100000 };
    for (int initialized = 0; initialized < 2; ++initialized) {
        if (initialized)
            t_start(2);
        for (size_t k = 0; k < sizeof sizes / sizeof *sizes; ++k) {
            char *p = f_malloc(sizes[k]);
            ck_assert_ptr_nonnull(p);
            ck_assert_uint_eq((uintptr_t)p % FI_CACHE_LINE, 0);
            memset(p, 0xa5, sizes[k]);
            f_free(p);
        }
        ck_assert_ptr_null(f_malloc((size_t)-1));
        ck_assert_ptr_null(f_malloc((size_t)-1 - FI_CACHE_LINE + 2));
        fi_alloc_fail_reset(1);
        ck_assert_ptr_null(f_malloc(64));
        void *p = f_malloc(64);  /* only the first one failed */
        fi_alloc_fail_reset(0);
        ck_assert_ptr_nonnull(p);
        f_free(p);
        f_free(NULL);
    }
    t_assert_library_works();
}
END_TEST

Suite *make_suite(void)
{
    Suite *s = suite_create("alloc");
    TCase *errors = t_tcase(s, "errors");
    tcase_add_test(errors, test_alloc_each_allocation_fails);
    tcase_add_loop_test(errors, test_alloc_initialize, 0, T_NCOUNTS);
    tcase_add_loop_test(errors, test_alloc_during_run, 0, T_NCOUNTS);
    tcase_add_test(errors, test_alloc_f_malloc);
    return s;
}
