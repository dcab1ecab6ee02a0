/*
 * check_phase.c - suite "phase": iterative filaments, phases and the
 * barrier between passes [paper §2.2, §4.4].  Sequential code counting
 * passes, phases in circular order, NULL sequential code, barrier code that
 * runs alone (no filament early or late), back-and-forth order with runs and
 * with runs of one point only, range versions, rows created in one call
 * (f_iterative_row) against the same points one by one, F_ANY iterative
 * filaments,
 * RTC filaments created during a pass, every shape of the barrier's tree,
 * adaptive placement, cores handed to a late server, and a stress loop of
 * small multi-phase jobs.
 */
#define _GNU_SOURCE  /* sched_getcpu, CPU_COUNT: the handoff test */
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tests.h"

/* ------------------------------------------------------ seq counting */

struct count_job {
    long k;          /* passes wanted */
    long calls;      /* seq calls: barrier code runs alone, so a plain int */
    int seen_self;   /* seq ran on a server */
};

static int count_seq(void *arg)
{
    struct count_job *c = arg;
    int s = f_my_server();
    if (s < 0 || s >= f_num_servers())
        c->seen_self = -1;
    return ++c->calls == c->k ? F_DONE : F_NOTDONE;
}

/* One phase, seq returns F_DONE after K passes: K passes of every filament. */
START_TEST(test_phase_seq_counts_passes)
{
    int n = t_start_loop(_i);
    static const long ks[] = { 1, 2, 50 };
    for (int v = 0; v < 3; ++v) {
        struct count_job c = { .k = ks[v] };
        struct t_record *r = t_record_new(11L * n + 10);
        ck_assert_int_ge(f_new_barrier(count_seq, &c), 0);
        long id = 0;
        for (int s = 0; s < n; ++s)
            for (int k = 0; k < 11; ++k, ++id)
                ck_assert_int_eq(f_iterative_thread(s, t_record_fn, id, 0, r), F_OK);
        for (; id < r->n; ++id)
            ck_assert_int_eq(f_iterative_thread(F_ANY, t_record_fn, id, 0, r), F_OK);
        ck_assert_int_eq(f_reset_stats(), F_OK);
        ck_assert_int_eq(f_parallel(), F_OK);
        T_ASSERT_NO_FAILURES();
        ck_assert_int_eq(c.calls, ks[v]);
        ck_assert_int_eq(c.seen_self, 0);
        t_record_assert_runs(r, (int)ks[v]);
        for (long k = 0; k < 11L * n; ++k)
            T_REQUIRE_EQ(r->server[k], k / 11);
        struct f_stats st;
        for (int s = 0; s < n; ++s) {
            ck_assert_int_eq(f_get_stats(s, &st), F_OK);
            ck_assert_uint_eq(st.barrier_episodes, (unsigned long)ks[v]);
        }
        ck_assert_int_eq(f_get_stats(F_ANY, &st), F_OK);
        ck_assert_uint_eq(st.barrier_episodes, (unsigned long)(ks[v] * n));
        ck_assert_uint_eq(st.filaments_run, (unsigned long)(ks[v] * r->n));
        t_record_free(r);
    }
}
END_TEST

/* A phase with no filaments: only its barrier, K times. */
START_TEST(test_phase_empty_phase)
{
    t_start_loop(_i);
    struct count_job c = { .k = 20 };
    ck_assert_int_ge(f_new_barrier(count_seq, &c), 0);
    ck_assert_int_eq(f_parallel(), F_OK);
    ck_assert_int_eq(c.calls, 20);
}
END_TEST

/* Only the last server has filaments; the others only meet at the barrier. */
START_TEST(test_phase_one_server_busy)
{
    int n = t_start_loop(_i);
    struct count_job c = { .k = 30 };
    struct t_record *r = t_record_new(100);
    ck_assert_int_ge(f_new_barrier(count_seq, &c), 0);
    for (long k = 0; k < r->n; ++k)
        ck_assert_int_eq(f_iterative_thread(n - 1, t_record_fn, k, 0, r), F_OK);
    ck_assert_int_eq(f_parallel(), F_OK);
    T_ASSERT_NO_FAILURES();
    ck_assert_int_eq(c.calls, 30);
    t_record_assert_runs(r, 30);
    t_record_free(r);
}
END_TEST

/* --------------------------------------------------- circular order */

#define MAX_ORDER 256
#define MAX_PHASES 64
struct order_job {
    int nphases;
    int done_phase;   /* the phase whose seq ends the run ... */
    int done_call;    /* ... on its done_call-th call */
    int calls[MAX_PHASES];
    int order[MAX_ORDER];
    int norder;
    atomic_int current;  /* the phase whose filaments may run now */
    atomic_long ran[MAX_PHASES];
};

struct order_phase {
    struct order_job *job;
    int phase;
};

static int order_seq(void *arg)
{
    struct order_phase *p = arg;
    struct order_job *o = p->job;
    T_EXPECT(atomic_load(&o->current) == p->phase);
    if (o->norder < MAX_ORDER)
        o->order[o->norder++] = p->phase;
    atomic_store(&o->current, (p->phase + 1) % o->nphases);
    return ++o->calls[p->phase] == o->done_call && p->phase == o->done_phase ? F_DONE
                                                                              : F_NOTDONE;
}

static void order_filament(long i, long j, void *arg)
{
    struct order_phase *p = arg;
    T_EXPECT(atomic_load(&p->job->current) == p->phase);
    atomic_fetch_add(&p->job->ran[p->phase], 1);
}

static void run_order_job(int n, int nphases, int done_phase, int done_call)
{
    struct order_job o = { .nphases = nphases, .done_phase = done_phase, .done_call = done_call };
    atomic_init(&o.current, 0);
    struct order_phase ph[MAX_PHASES];
    for (int p = 0; p < nphases; ++p) {
        atomic_init(&o.ran[p], 0);
        ph[p] = (struct order_phase){ &o, p };
        ck_assert_int_eq(f_new_barrier(order_seq, &ph[p]), p);
        for (int s = 0; s < n; ++s)
            for (int k = 0; k <= p % 4; ++k)
                ck_assert_int_eq(f_iterative_thread(s, order_filament, k, s, &ph[p]), F_OK);
        ck_assert_int_eq(f_iterative_thread(F_ANY, order_filament, 99, 0, &ph[p]), F_OK);
    }
    ck_assert_int_eq(f_parallel(), F_OK);
    T_ASSERT_NO_FAILURES();
    int want = (done_call - 1) * nphases + done_phase + 1;
    ck_assert_int_eq(o.norder, want);
    for (int k = 0; k < o.norder; ++k)
        ck_assert_int_eq(o.order[k], k % nphases);
    for (int p = 0; p < nphases; ++p) {
        long passes = p <= done_phase ? done_call : done_call - 1;
        ck_assert_int_eq(o.calls[p], passes);
        ck_assert_int_eq(t_ldl(&o.ran[p]), passes * ((long)n * (p % 4 + 1) + 1));
    }
}

/* Phases run 0, 1, 2, 0, 1, 2, ... until a seq says F_DONE, after any phase. */
START_TEST(test_phase_circular_order)
{
    int n = t_start_loop(_i);
    run_order_job(n, 3, 2, 5);
    run_order_job(n, 4, 1, 3);
    run_order_job(n, 2, 0, 1);
    run_order_job(n, 1, 0, 4);
    run_order_job(n, 8, 5, 2);
}
END_TEST

/* Many phases: the phase table grows; the order stays circular. */
START_TEST(test_phase_many_phases)
{
    int n = t_start_loop(_i);
    run_order_job(n, MAX_PHASES, MAX_PHASES - 1, 3);
    run_order_job(n, 40, 17, 4);
}
END_TEST

/* NULL seq: the barrier only synchronizes; another phase's seq ends the run. */
START_TEST(test_phase_null_seq)
{
    int n = t_start_loop(_i);
    struct count_job c = { .k = 25 };
    struct t_record *r = t_record_new(3L * n);
    ck_assert_int_ge(f_new_barrier(NULL, NULL), 0);
    for (long k = 0; k < n; ++k)
        ck_assert_int_eq(f_iterative_thread((int)k, t_record_fn, k, 0, r), F_OK);
    ck_assert_int_ge(f_new_barrier(NULL, &c), 0);
    for (long k = n; k < 2L * n; ++k)
        ck_assert_int_eq(f_iterative_thread((int)(k % n), t_record_fn, k, 0, r), F_OK);
    ck_assert_int_ge(f_new_barrier(count_seq, &c), 0);
    for (long k = 2L * n; k < 3L * n; ++k)
        ck_assert_int_eq(f_iterative_thread(F_ANY, t_record_fn, k, 0, r), F_OK);
    ck_assert_int_eq(f_parallel(), F_OK);
    T_ASSERT_NO_FAILURES();
    ck_assert_int_eq(c.calls, 25);
    t_record_assert_runs(r, 25);
    t_record_free(r);
}
END_TEST

/* ------------------------------------------------ barrier runs alone */

/*
 * Every filament adds 1 to the phase's counter per pass (and, in the second
 * phase, also sends an RTC filament to the next server that adds 1 more).
 * The seq code checks the counter is exactly passes x filaments: an early
 * exit from the barrier shows as a short count, a late filament as a long
 * one.  It then waits a little and checks that nothing moved while it ran.
 */
struct alone_job {
    int n;
    long per_pass[2];     /* increments per pass */
    long passes[2];
    atomic_long count[2];
    atomic_int in_seq;
    long k;
    long short_count, long_count, moved;
};

struct alone_phase {
    struct alone_job *job;
    int phase;
};

static void alone_rtc(long i, long j, void *arg)
{
    struct alone_job *a = arg;
    T_EXPECT(atomic_load(&a->in_seq) == 0);
    atomic_fetch_add(&a->count[1], 1);
}

static void alone_filament(long i, long j, void *arg)
{
    struct alone_phase *p = arg;
    struct alone_job *a = p->job;
    T_EXPECT(atomic_load(&a->in_seq) == 0);
    atomic_fetch_add(&a->count[p->phase], 1);
    if (p->phase == 1)
        T_EXPECT(f_rtc_thread((f_my_server() + 1) % a->n, alone_rtc, 0, 0, a) == F_OK);
}

static int alone_seq(void *arg)
{
    struct alone_phase *p = arg;
    struct alone_job *a = p->job;
    T_EXPECT(atomic_exchange(&a->in_seq, 1) == 0);
    long want = ++a->passes[p->phase] * a->per_pass[p->phase];
    long got = atomic_load(&a->count[p->phase]);
    if (got < want)
        a->short_count++;
    if (got > want)
        a->long_count++;
    for (int k = 0; k < 3; ++k)
        sched_yield();
    t_work(2000);
    if (atomic_load(&a->count[p->phase]) != got || atomic_load(&a->count[1 - p->phase]) !=
        a->passes[1 - p->phase] * a->per_pass[1 - p->phase])
        a->moved++;
    atomic_store(&a->in_seq, 0);
    return p->phase == 1 && a->passes[1] == a->k ? F_DONE : F_NOTDONE;
}

START_TEST(test_phase_barrier_runs_alone)
{
    int n = t_start_loop(_i);
    struct alone_job a = { .n = n, .k = 100 };
    atomic_init(&a.count[0], 0);
    atomic_init(&a.count[1], 0);
    atomic_init(&a.in_seq, 0);
    struct alone_phase ph[2] = { { &a, 0 }, { &a, 1 } };
    for (int p = 0; p < 2; ++p) {
        ck_assert_int_ge(f_new_barrier(alone_seq, &ph[p]), 0);
        long made = 0;
        for (int s = 0; s < n; ++s)
            for (int k = 0; k < 5 + 3 * s; ++k, ++made)
                ck_assert_int_eq(f_iterative_thread(s, alone_filament, k, s, &ph[p]), F_OK);
        for (int k = 0; k < 7; ++k, ++made)
            ck_assert_int_eq(f_iterative_thread(F_ANY, alone_filament, 100 + k, 0, &ph[p]),
                             F_OK);
        a.per_pass[p] = p == 0 ? made : 2 * made;
    }
    ck_assert_int_eq(f_parallel(), F_OK);
    T_ASSERT_NO_FAILURES();
    ck_assert_int_eq(a.short_count, 0);
    ck_assert_int_eq(a.long_count, 0);
    ck_assert_int_eq(a.moved, 0);
    ck_assert_int_eq(a.passes[0], 100);
    ck_assert_int_eq(a.passes[1], 100);
    ck_assert_int_eq(t_ldl(&a.count[0]), 100 * a.per_pass[0]);
    ck_assert_int_eq(t_ldl(&a.count[1]), 100 * a.per_pass[1]);
}
END_TEST

/* RTC filaments created during a pass (own server, next one, F_ANY) run
 * before that pass's barrier. */
struct pass_rtc_job {
    int n;
    long k, calls, per_pass;
    atomic_long rtc;
    long wrong;
};

static void pass_rtc_leaf(long i, long j, void *arg)
{
    struct pass_rtc_job *p = arg;
    atomic_fetch_add(&p->rtc, 1);
}

static void pass_rtc_iter(long i, long j, void *arg)
{
    struct pass_rtc_job *p = arg;
    int me = f_my_server();
    T_EXPECT(f_rtc_thread(me, pass_rtc_leaf, 0, 0, p) == F_OK);
    T_EXPECT(f_rtc_thread((me + 1) % p->n, pass_rtc_leaf, 0, 0, p) == F_OK);
    T_EXPECT(f_rtc_thread(F_ANY, pass_rtc_leaf, 0, 0, p) == F_OK);
}

static int pass_rtc_seq(void *arg)
{
    struct pass_rtc_job *p = arg;
    ++p->calls;
    if (atomic_load(&p->rtc) != p->calls * p->per_pass)
        p->wrong++;
    return p->calls == p->k ? F_DONE : F_NOTDONE;
}

/* Run p's phase, k passes, and check that each barrier saw its pass's RTC
 * filaments, per_pass of them, all run. */
static void run_pass_rtc(struct pass_rtc_job *p)
{
    ck_assert_int_eq(f_parallel(), F_OK);
    T_ASSERT_NO_FAILURES();
    ck_assert_int_eq(p->calls, p->k);
    ck_assert_int_eq(p->wrong, 0);
    ck_assert_int_eq(t_ldl(&p->rtc), p->k * p->per_pass);
}

START_TEST(test_phase_rtc_created_in_pass)
{
    int n = t_start_loop(_i);
    struct pass_rtc_job p = { .n = n, .k = 40 };
    atomic_init(&p.rtc, 0);
    ck_assert_int_ge(f_new_barrier(pass_rtc_seq, &p), 0);
    for (int s = 0; s < n; ++s)
        for (int k = 0; k < 4; ++k)
            ck_assert_int_eq(f_iterative_thread(s, pass_rtc_iter, k, s, &p), F_OK);
    ck_assert_int_eq(f_iterative_thread(F_ANY, pass_rtc_iter, 9, 9, &p), F_OK);
    p.per_pass = 3 * (4L * n + 1);
    run_pass_rtc(&p);
}
END_TEST

/* Every shape of the barrier's tree (1 to 22 servers: a 4-ary tree is three
 * levels deep from 21), alternating plain passes with passes whose
 * filaments send RTC filaments elsewhere: each barrier must find its pass's
 * filaments all run, and none of a plain pass's barrier is skipped. */
static void tree_iter(long i, long j, void *arg)
{
    struct pass_rtc_job *p = arg;
    if (p->calls % 2 == 1)
        pass_rtc_iter(i, j, arg);
}

static int tree_seq(void *arg)
{
    struct pass_rtc_job *p = arg;
    if (atomic_load(&p->rtc) != (p->calls + 1) / 2 * p->per_pass)
        p->wrong++;
    return ++p->calls == p->k ? F_DONE : F_NOTDONE;
}

START_TEST(test_phase_tree_shapes)
{
    int n = t_start(t_servers_cap(_i + 1));
    struct pass_rtc_job p = { .n = n, .k = 41, .per_pass = 3L * n };
    atomic_init(&p.rtc, 0);
    ck_assert_int_ge(f_new_barrier(tree_seq, &p), 0);
    for (int s = 0; s < n; ++s)
        ck_assert_int_eq(f_iterative_thread(s, tree_iter, s, 0, &p), F_OK);
    ck_assert_int_eq(f_parallel(), F_OK);
    T_ASSERT_NO_FAILURES();
    ck_assert_int_eq(p.calls, p.k);
    ck_assert_int_eq(p.wrong, 0);
    ck_assert_int_eq(t_ldl(&p.rtc), p.k / 2 * p.per_pass);
}
END_TEST

/* The same with a queue chunk's worth (the first holds 256, the next 512)
 * per pass or two: a pass then ends with its server's oldest chunk full and
 * used up, and the next pass's filaments behind it, in a new chunk, where
 * the drain must still find them. */
static void pass_burst_iter(long i, long j, void *arg)
{
    struct pass_rtc_job *p = arg;
    for (long k = 0; k < j; ++k)
        T_EXPECT(f_rtc_thread(f_my_server(), pass_rtc_leaf, 0, 0, p) == F_OK);
}

START_TEST(test_phase_rtc_chunks_in_pass)
{
    int n = t_start_loop(_i);
    struct pass_rtc_job p = { .n = n, .k = 12 };
    atomic_init(&p.rtc, 0);
    ck_assert_int_ge(f_new_barrier(pass_rtc_seq, &p), 0);
    for (int s = 0; s < n; ++s) {
        long burst = 128L << (s % 2);
        ck_assert_int_eq(f_iterative_thread(s, pass_burst_iter, s, burst, &p), F_OK);
        p.per_pass += burst;
    }
    run_pass_rtc(&p);
}
END_TEST

/* ------------------------------------------- a deep barrier tree */

/*
 * The barrier's tree three levels deep: fan-in 2 (FILAMENTS_TEST_FANIN, for
 * tests) at 8 servers is 4, 2 and 1 nodes, where the default fan-in makes
 * two levels.  A ring stencil in two phases (new values from the
 * neighbours', then copied back), each cell's filament on its own server,
 * so that a server leaving a barrier early reads a neighbour's cell of the
 * wrong pass: the result must equal the sequential one, and every server
 * must count every episode.
 */
enum { DEEP_CELLS = 8, DEEP_PASSES = 60 };
struct deep_job {
    long m;
    long *a, *b;
    long calls;
};

static long deep_next(const long *a, long m, long x)
{
    return (a[(x + m - 1) % m] + 2 * a[x] + 3 * a[(x + 1) % m] + x) % 1000003;
}

static void deep_step(long x, long unused, void *arg)
{
    struct deep_job *d = arg;
    d->b[x] = deep_next(d->a, d->m, x);
}

static void deep_copy(long x, long unused, void *arg)
{
    struct deep_job *d = arg;
    d->a[x] = d->b[x];
}

static int deep_seq(void *arg)
{
    struct deep_job *d = arg;
    return ++d->calls == DEEP_PASSES ? F_DONE : F_NOTDONE;
}

START_TEST(test_phase_deep_tree)
{
    ck_assert_int_eq(setenv("FILAMENTS_TEST_FANIN", "2", 1), 0);
    int n = t_start(t_servers_cap(8));
    struct deep_job d = { .m = (long)n * DEEP_CELLS };
    long *want = calloc((size_t)d.m, sizeof *want), *next = calloc((size_t)d.m, sizeof *next);
    d.a = calloc((size_t)d.m, sizeof *d.a);
    d.b = calloc((size_t)d.m, sizeof *d.b);
    ck_assert(want != NULL && next != NULL && d.a != NULL && d.b != NULL);
    for (long x = 0; x < d.m; ++x)
        d.a[x] = want[x] = x * 7 + 1;
    for (int p = 0; p < DEEP_PASSES; ++p) {
        for (long x = 0; x < d.m; ++x)
            next[x] = deep_next(want, d.m, x);
        memcpy(want, next, (size_t)d.m * sizeof *want);
    }
    ck_assert_int_ge(f_new_barrier(NULL, NULL), 0);
    for (long x = 0; x < d.m; ++x)
        ck_assert_int_eq(f_iterative_thread((int)(x / DEEP_CELLS), deep_step, x, 0, &d), F_OK);
    ck_assert_int_ge(f_new_barrier(deep_seq, &d), 0);
    for (long x = 0; x < d.m; ++x)
        ck_assert_int_eq(f_iterative_thread((int)(x / DEEP_CELLS), deep_copy, x, 0, &d), F_OK);
    ck_assert_int_eq(f_reset_stats(), F_OK);
    ck_assert_int_eq(f_parallel(), F_OK);
    ck_assert_int_eq(d.calls, DEEP_PASSES);
    for (long x = 0; x < d.m; ++x)
        T_REQUIRE_EQ(d.a[x], want[x]);
    struct f_stats st;
    for (int s = 0; s < n; ++s) {
        ck_assert_int_eq(f_get_stats(s, &st), F_OK);
        ck_assert_uint_eq(st.barrier_episodes, 2UL * DEEP_PASSES);
    }
    free(want), free(next), free(d.a), free(d.b);
}
END_TEST

/* RTC filaments from main and phases in one run: all of both. */
START_TEST(test_phase_with_rtc_from_main)
{
    int n = t_start_loop(_i);
    struct t_record *r = t_record_new(1000);
    for (long k = 0; k < 1000; ++k)
        ck_assert_int_eq(f_rtc_thread(k % 2 ? F_ANY : (int)(k % n), t_record_fn, k, 0, r), F_OK);
    struct count_job c = { .k = 7 };
    atomic_long iter;
    atomic_init(&iter, 0);
    ck_assert_int_ge(f_new_barrier(count_seq, &c), 0);
    for (int s = 0; s < n; ++s)
        ck_assert_int_eq(f_iterative_thread(s, t_count_fn, 0, 0, &iter), F_OK);
    ck_assert_int_eq(f_parallel(), F_OK);
    T_ASSERT_NO_FAILURES();
    t_record_assert_runs(r, 1);
    ck_assert_int_eq(c.calls, 7);
    ck_assert_int_eq(t_ldl(&iter), 7L * n);
    t_record_free(r);
}
END_TEST

/* ------------------------------------------------- back and forth */

/*
 * The pattern each server gets, in creation order.  Runs (header: same fn,
 * i and arg, consecutive j, created one after the other) are marked by the
 * expected run number.  Neither function has a range version, so the
 * passes go back and forth: a backward pass takes the runs from the last
 * and the points of each with j decreasing.  Filament codes are logged as
 * fn*10^7 + arg*10^6 + i*1000 + j (+ server*10^8).
 */
struct bf_fil {
    int fn, arg;
    long i, j;
    int run;
};

static const struct bf_fil bf_pattern[] = {
    { 0, 0, 1, 0, 0 }, { 0, 0, 1, 1, 0 }, { 0, 0, 1, 2, 0 }, { 0, 0, 1, 3, 0 },
    { 0, 0, 2, 10, 1 }, { 0, 0, 2, 11, 1 }, { 0, 0, 2, 12, 1 },
    { 0, 0, 3, 0, 2 },                       /* alone */
    { 0, 0, 3, 2, 3 }, { 0, 0, 3, 3, 3 },    /* a gap in j: a new run */
    { 0, 0, 4, 5, 4 }, { 0, 0, 4, 4, 5 },    /* j decreasing: two runs */
    { 0, 1, 4, 5, 6 }, { 0, 1, 4, 6, 6 },    /* another arg: a new run */
    { 1, 1, 4, 7, 7 }, { 1, 1, 4, 8, 7 },    /* another fn: a new run */
    { 1, 1, 5, 9, 8 },                       /* another i: a new run */
    { 1, 1, 5, 9, 9 },                       /* the same j again: a new run */
    { 0, 0, 1, 4, 10 },                      /* continues run 0's j, but not right after it */
};
#define BF_N (sizeof bf_pattern / sizeof *bf_pattern)
#define BF_RUNS 11

struct bf_job;
struct bf_arg {  /* two distinct args of the same job */
    struct bf_job *job;
    int which;
};

struct bf_job {
    struct t_logs *logs;
    long k, calls;
    struct bf_arg args[2];
};

static void bf_log(int fn, long i, long j, void *arg)
{
    const struct bf_arg *a = arg;
    t_log(a->job->logs,
          (long)f_my_server() * 100000000L + fn * 10000000L + a->which * 1000000L + i * 1000 + j);
}

static void bf_fn0(long i, long j, void *arg) { bf_log(0, i, j, arg); }
static void bf_fn1(long i, long j, void *arg) { bf_log(1, i, j, arg); }

static int bf_seq(void *arg)
{
    struct bf_job *b = arg;
    return ++b->calls == b->k ? F_DONE : F_NOTDONE;
}

START_TEST(test_phase_back_and_forth)
{
    int n = t_start_loop(_i);
    struct bf_job b = { .k = 4 };
    b.args[0] = (struct bf_arg){ &b, 0 };
    b.args[1] = (struct bf_arg){ &b, 1 };
    b.logs = t_logs_new(n, BF_N * 4);
    ck_assert_int_ge(f_new_barrier(bf_seq, &b), 0);
    for (int s = 0; s < n; ++s)
        for (size_t f = 0; f < BF_N; ++f) {
            const struct bf_fil *x = &bf_pattern[f];
            ck_assert_int_eq(f_iterative_thread(s, x->fn ? bf_fn1 : bf_fn0, x->i, x->j,
                                                &b.args[x->arg]),
                             F_OK);
        }
    ck_assert_int_eq(f_parallel(), F_OK);
    T_ASSERT_NO_FAILURES();
    ck_assert_int_eq(b.calls, 4);
    for (int s = 0; s < n; ++s) {
        ck_assert_uint_eq(b.logs->len[s], BF_N * 4);
        size_t at = 0;
        for (int pass = 0; pass < 4; ++pass) {
            for (int q = 0; q < BF_RUNS; ++q) {
                int backward = pass % 2 == 1;
                int run = backward ? BF_RUNS - 1 - q : q;
                for (size_t k = 0; k < BF_N; ++k) {
                    const struct bf_fil *x = &bf_pattern[backward ? BF_N - 1 - k : k];
                    if (x->run != run)
                        continue;
                    long want = (long)s * 100000000L + x->fn * 10000000L + x->arg * 1000000L +
                                x->i * 1000 + x->j;
                    ck_assert_msg(b.logs->v[s][at] == want,
                                  "server %d pass %d position %zu: got %ld, want %ld", s, pass + 1,
                                  at, b.logs->v[s][at], want);
                    ++at;
                }
            }
        }
    }
    t_logs_free(b.logs);
}
END_TEST

/* Long rows, as in a grid, with no range version: pass 1 rows up with j up,
 * pass 2 rows down with j down, point by point [paper §4.4]. */
struct grid_job {
    struct t_logs *logs;
    long k, calls;
};

static void grid_point(long i, long j, void *arg)
{
    struct grid_job *g = arg;
    t_log(g->logs, i * 100000 + j);
}

static int grid_seq(void *arg)
{
    struct grid_job *g = arg;
    return ++g->calls == g->k ? F_DONE : F_NOTDONE;
}

START_TEST(test_phase_back_and_forth_rows)
{
    int n = t_start_loop(_i);
    const long rows = 24, cols = 300, passes = 3;
    struct grid_job g = { .k = passes };
    g.logs = t_logs_new(n, (size_t)(rows * cols * passes));
    ck_assert_int_ge(f_new_barrier(grid_seq, &g), 0);
    for (long i = 0; i < rows; ++i)
        for (long j = 0; j < cols; ++j)
            T_REQUIRE_EQ(f_iterative_thread((int)(i % n), grid_point, i, j, &g), F_OK);
    ck_assert_int_eq(f_parallel(), F_OK);
    T_ASSERT_NO_FAILURES();
    for (int s = 0; s < n; ++s) {
        long myrows[24], nmine = 0;
        for (long i = s; i < rows; i += n)
            myrows[nmine++] = i;
        T_REQUIRE_EQ(g.logs->len[s], nmine * cols * passes);
        size_t at = 0;
        for (long p = 0; p < passes; ++p)
            for (long q = 0; q < nmine; ++q) {
                long i = myrows[p % 2 == 0 ? q : nmine - 1 - q];
                for (long c = 0; c < cols; ++c, ++at) {
                    long j = p % 2 == 0 ? c : cols - 1 - c;
                    if (g.logs->v[s][at] != i * 100000 + j)
                        ck_abort_msg("server %d pass %ld at %zu: got %ld want row %ld col %ld", s,
                                     p + 1, at, g.logs->v[s][at], i, j);
                }
            }
    }
    t_logs_free(g.logs);
}
END_TEST

/* Runs of one point only (a filament per column, as Gauss has), two fns
 * and two args mixed: pass 1 front to rear, pass 2 rear to front, and so
 * on; the same whether or not some other fn has a range version (the pass
 * has a loop of its own for such phases when none has one, phase.c). */
static void singles_range(long i, long jb, long je, void *arg)
{
    T_EXPECT(!"a range version of a function no filament has");
}

static void singles_run(int n, int with_range)
{
    enum { COLS = 37, PASSES = 5 };
    struct bf_job b = { .k = PASSES };
    b.args[0] = (struct bf_arg){ &b, 0 };
    b.args[1] = (struct bf_arg){ &b, 1 };
    b.logs = t_logs_new(n, COLS * PASSES);
    if (with_range)
        ck_assert_int_eq(f_set_range_version(grid_point, singles_range), F_OK);
    ck_assert_int_ge(f_new_barrier(bf_seq, &b), 0);
    for (long c = 0; c < COLS; ++c)
        T_REQUIRE_EQ(f_iterative_thread((int)(c % n), c % 3 ? bf_fn0 : bf_fn1, c, c % 5,
                                        &b.args[c % 2]),
                     F_OK);
    ck_assert_int_eq(f_parallel(), F_OK);
    T_ASSERT_NO_FAILURES();
    ck_assert_int_eq(b.calls, PASSES);
    for (int s = 0; s < n; ++s) {
        long mine[COLS], nmine = 0;
        for (long c = s; c < COLS; c += n)
            mine[nmine++] = c;
        T_REQUIRE_EQ(b.logs->len[s], nmine * PASSES);
        size_t at = 0;
        for (int p = 0; p < PASSES; ++p)
            for (long q = 0; q < nmine; ++q, ++at) {
                long c = mine[p % 2 == 0 ? q : nmine - 1 - q];
                long want = (long)s * 100000000L + (c % 3 ? 0 : 10000000L) +
                            (c % 2) * 1000000L + c * 1000 + c % 5;
                if (b.logs->v[s][at] != want)
                    ck_abort_msg("server %d pass %d at %zu: got %ld, want %ld", s, p + 1, at,
                                 b.logs->v[s][at], want);
            }
    }
    if (with_range)
        ck_assert_int_eq(f_set_range_version(grid_point, NULL), F_OK);
    t_logs_free(b.logs);
}

START_TEST(test_phase_back_and_forth_singles)
{
    int n = t_start_loop(_i);
    singles_run(n, 0);
    singles_run(n, 1);
}
END_TEST

/* ----------------------------------------------------- range versions */

struct range_job {
    struct t_logs *logs;   /* range calls: i * 10^6 + jb * 1000 + je */
    atomic_long points;    /* calls of the point function that has a range version */
    atomic_long plain;     /* calls of a point function without one */
    long k, calls;
};

static void rng_point(long i, long j, void *arg)
{
    struct range_job *r = arg;
    atomic_fetch_add(&r->points, 1);
}

static void rng_range(long i, long jb, long je, void *arg)
{
    struct range_job *r = arg;
    t_log(r->logs, i * 1000000 + jb * 1000 + je);
}

static void rng_plain(long i, long j, void *arg)
{
    struct range_job *r = arg;
    atomic_fetch_add(&r->plain, 1);
}

static int rng_seq(void *arg)
{
    struct range_job *r = arg;
    return ++r->calls == r->k ? F_DONE : F_NOTDONE;
}

/* Each run (row) is one range call per pass with [j_begin, j_end), and
 * every pass goes forward (a range version walks j up: fi_phase_pass);
 * functions without a range version are called per point. */
START_TEST(test_phase_range_version)
{
    int n = t_start_loop(_i);
    const long rows = 10, passes = 4;
    struct range_job r = { .k = passes };
    atomic_init(&r.points, 0);
    atomic_init(&r.plain, 0);
    r.logs = t_logs_new(n, 1000);
    ck_assert_int_eq(f_set_range_version(rng_point, rng_range), F_OK);
    ck_assert_int_ge(f_new_barrier(rng_seq, &r), 0);
    /* Row i: j from i to 2i+5 (length i+6, so run lengths differ); row 3 is
     * split by a gap; a single point with j = 900. */
    long plain_per_pass = 0;
    for (long i = 0; i < rows; ++i) {
        for (long j = i; j < 2 * i + 6; ++j) {
            if (i == 3 && j == 5)
                continue;
            ck_assert_int_eq(f_iterative_thread((int)(i % n), rng_point, i, j, &r), F_OK);
        }
        ck_assert_int_eq(f_iterative_thread((int)(i % n), rng_plain, i, 0, &r), F_OK);
        ck_assert_int_eq(f_iterative_thread((int)(i % n), rng_plain, i, 1, &r), F_OK);
        plain_per_pass += 2;
    }
    ck_assert_int_eq(f_iterative_thread(0, rng_point, 77, 900, &r), F_OK);
    ck_assert_int_eq(f_parallel(), F_OK);
    T_ASSERT_NO_FAILURES();
    ck_assert_int_eq(t_ldl(&r.points), 0);
    ck_assert_int_eq(t_ldl(&r.plain), plain_per_pass * passes);
    for (int s = 0; s < n; ++s) {
        /* The runs of rng_point on server s, in creation order. */
        long want[32];
        int nw = 0;
        for (long i = s; i < rows; i += n) {
            if (i == 3) {
                want[nw++] = 3 * 1000000 + 3 * 1000 + 5;
                want[nw++] = 3 * 1000000 + 6 * 1000 + 12;
            } else {
                want[nw++] = i * 1000000 + i * 1000 + (2 * i + 6);
            }
        }
        if (s == 0)
            want[nw++] = 77 * 1000000 + 900 * 1000 + 901;
        ck_assert_uint_eq(r.logs->len[s], (size_t)(nw * passes));
        for (long p = 0; p < passes; ++p)
            for (int q = 0; q < nw; ++q) {
                long got = r.logs->v[s][p * nw + q];
                long w = want[q];
                ck_assert_msg(got == w, "server %d pass %ld run %d: range call %ld, want %ld", s,
                              p + 1, q, got, w);
            }
    }
    t_logs_free(r.logs);

    /* Removed again (range NULL): rng_point is called per point. */
    ck_assert_int_eq(f_set_range_version(rng_point, NULL), F_OK);
    ck_assert_int_eq(f_set_range_version(rng_point, NULL), F_OK);
    r.logs = t_logs_new(n, 10);
    r.calls = 0;
    r.k = 2;
    ck_assert_int_ge(f_new_barrier(rng_seq, &r), 0);
    for (long j = 0; j < 50; ++j)
        ck_assert_int_eq(f_iterative_thread((int)(j % n), rng_point, 1, j / n, &r), F_OK);
    ck_assert_int_eq(f_parallel(), F_OK);
    ck_assert_int_eq(t_ldl(&r.points), 100);
    for (int s = 0; s < n; ++s)
        ck_assert_uint_eq(r.logs->len[s], 0);
    t_logs_free(r.logs);
}
END_TEST

/* F_RANGE_VERSION builds the range version from the point function. */
struct macro_job {
    atomic_long hits[64];
    long k, calls;
};

static inline void macro_point(long i, long j, void *arg)
{
    struct macro_job *m = arg;
    atomic_fetch_add(&m->hits[j], 1);
}
F_RANGE_VERSION(macro_point)

static int macro_seq(void *arg)
{
    struct macro_job *m = arg;
    return ++m->calls == m->k ? F_DONE : F_NOTDONE;
}

START_TEST(test_phase_range_version_macro)
{
    int n = t_start_loop(_i);
    struct macro_job m = { .k = 3 };
    for (int j = 0; j < 64; ++j)
        atomic_init(&m.hits[j], 0);
    ck_assert_int_eq(f_set_range_version(macro_point, macro_point_range), F_OK);
    ck_assert_int_ge(f_new_barrier(macro_seq, &m), 0);
    for (long j = 0; j < 64; ++j)
        ck_assert_int_eq(f_iterative_thread((int)(j * n / 64), macro_point, 5, j, &m), F_OK);
    ck_assert_int_eq(f_parallel(), F_OK);
    for (int j = 0; j < 64; ++j)
        ck_assert_int_eq(t_ldl(&m.hits[j]), 3);
}
END_TEST

/* j at the ends of long: each filament still runs exactly once per pass. */
struct edge_job {
    atomic_long hits[6];
    atomic_long bad;
    long k, calls;
};

static long edge_slot(long j)
{
    if (j >= LONG_MAX - 2)
        return 3 + (j - (LONG_MAX - 2));
    if (j <= LONG_MIN + 2)
        return j - LONG_MIN;
    return -1;
}

static void edge_point(long i, long j, void *arg)
{
    struct edge_job *e = arg;
    long s = edge_slot(j);
    if (s < 0)
        atomic_fetch_add(&e->bad, 1);
    else
        atomic_fetch_add(&e->hits[s], 1);
}

static void edge_range(long i, long jb, long je, void *arg)
{
    struct edge_job *e = arg;
    if (je <= jb)
        atomic_fetch_add(&e->bad, 1);
    for (long j = jb; j < je; ++j)
        edge_point(i, j, arg);
}

static int edge_seq(void *arg)
{
    struct edge_job *e = arg;
    return ++e->calls == e->k ? F_DONE : F_NOTDONE;
}

START_TEST(test_phase_j_limits)
{
    int n = t_start_loop(_i);
    for (int with_range = 0; with_range < 2; ++with_range) {
        struct edge_job e = { .k = 3 };
        atomic_init(&e.bad, 0);
        for (int k = 0; k < 6; ++k)
            atomic_init(&e.hits[k], 0);
        ck_assert_int_eq(f_set_range_version(edge_point, with_range ? edge_range : NULL), F_OK);
        ck_assert_int_ge(f_new_barrier(edge_seq, &e), 0);
        for (long d = 0; d < 3; ++d)
            ck_assert_int_eq(f_iterative_thread(n - 1, edge_point, 0, LONG_MIN + d, &e), F_OK);
        for (long d = 0; d < 3; ++d)
            ck_assert_int_eq(f_iterative_thread(n - 1, edge_point, 0, LONG_MAX - 2 + d, &e), F_OK);
        ck_assert_int_eq(f_parallel(), F_OK);
        ck_assert_int_eq(t_ldl(&e.bad), 0);
        for (int k = 0; k < 6; ++k)
            ck_assert_int_eq(t_ldl(&e.hits[k]), 3);
    }
}
END_TEST

/* -------------------------------------------------- rows in one call */

/* The calls of a pass, per server: a point as (i, j), a range call as
 * (-1 - i, j_begin, j_end). */
struct rows_job {
    struct t_logs *logs;
    long k, calls;
};

static void rows_point(long i, long j, void *arg)
{
    struct rows_job *r = arg;
    t_log(r->logs, i);
    t_log(r->logs, j);
}

static void rows_range(long i, long jb, long je, void *arg)
{
    struct rows_job *r = arg;
    t_log(r->logs, -1 - i);
    t_log(r->logs, jb);
    t_log(r->logs, je);
}

static int rows_seq(void *arg)
{
    struct rows_job *r = arg;
    return ++r->calls == r->k ? F_DONE : F_NOTDONE;
}

/* One creation: j_begin <= j < j_end of row i on `server`, with arg a or b. */
struct row_call {
    int server;    /* -2: server i % n */
    long i, j_begin, j_end;
    int other_arg;
};

static const struct row_call row_calls[] = {
    { -2, 0, 0, 50, 0 },
    { -2, 1, 0, 20, 0 }, { -2, 1, 20, 21, 0 }, { -2, 1, 21, 40, 0 },    /* one run */
    { -2, 2, 5, 5, 0 }, { -2, 2, 5, 30, 0 }, { -2, 2, 30, 30, 0 },       /* empty rows */
    { -2, 2, 31, 40, 0 },                                                /* a gap: two runs */
    { F_ANY, 3, 0, 10, 0 }, { F_ANY, 3, 10, 25, 0 },    /* F_ANY: one run, one server */
    { F_ANY, 4, 0, 7, 0 }, { F_ANY, 5, 3, 4, 0 }, { F_ANY, 6, 0, 33, 0 },
    { -2, 7, LONG_MAX - 3, LONG_MAX, 0 }, { -2, 7, LONG_MAX, LONG_MAX, 0 },
    { -2, 8, LONG_MIN, LONG_MIN + 3, 0 }, { -2, 8, LONG_MIN + 3, LONG_MIN + 5, 0 },
    { -2, 9, 0, 10, 0 }, { -2, 9, 10, 20, 1 },    /* another arg: another run */
    { 0, 10, 0, 5, 0 }, { 0, 10, 5, 9, 0 },
};

/* Build the phase by rows (f_iterative_row) or point by point, run it. */
static void rows_build_and_run(int n, int by_rows, struct rows_job *r, struct rows_job *other)
{
    ck_assert_int_ge(f_new_barrier(rows_seq, r), 0);
    for (size_t c = 0; c < sizeof row_calls / sizeof *row_calls; ++c) {
        const struct row_call *rc = &row_calls[c];
        int s = rc->server == -2 ? (int)(rc->i % n) : rc->server;
        void *arg = rc->other_arg ? (void *)other : (void *)r;
        if (by_rows) {
            T_REQUIRE_EQ(f_iterative_row(s, rows_point, rc->i, rc->j_begin, rc->j_end, arg), F_OK);
        } else {
            for (long j = rc->j_begin; j != rc->j_end; ++j)
                T_REQUIRE_EQ(f_iterative_thread(s, rows_point, rc->i, j, arg), F_OK);
        }
    }
    /* The point LONG_MAX, which only f_iterative_thread can name, extends row 7. */
    T_REQUIRE_EQ(f_iterative_thread(7 % n, rows_point, 7, LONG_MAX, r), F_OK);
    ck_assert_int_eq(f_parallel(), F_OK);
    T_ASSERT_NO_FAILURES();
}

/* f_iterative_row forms the runs, and places F_ANY rows, as the calls of
 * f_iterative_thread point by point do: every server's calls, in every
 * pass (back and forth, or forward with a range version), are the same. */
START_TEST(test_phase_rows)
{
    int n = t_start_loop(_i);
    for (int with_range = 0; with_range < 2; ++with_range) {
        struct rows_job r[2], other[2];
        ck_assert_int_eq(f_set_range_version(rows_point, with_range ? rows_range : NULL), F_OK);
        for (int by_rows = 0; by_rows < 2; ++by_rows) {
            r[by_rows] = other[by_rows] = (struct rows_job){ .k = 3 };
            r[by_rows].logs = other[by_rows].logs = t_logs_new(n, 2000);
            rows_build_and_run(n, by_rows, &r[by_rows], &other[by_rows]);
            ck_assert_int_eq(r[by_rows].calls, 3);
        }
        for (int s = 0; s < n; ++s) {
            ck_assert_uint_eq(r[0].logs->len[s], r[1].logs->len[s]);
            ck_assert(memcmp(r[0].logs->v[s], r[1].logs->v[s],
                             r[0].logs->len[s] * sizeof(long)) == 0);
        }
        t_logs_free(r[0].logs);
        t_logs_free(r[1].logs);
    }
    ck_assert_int_eq(f_set_range_version(rows_point, NULL), F_OK);
}
END_TEST

/* --------------------------------------------- F_ANY iterative filaments */

START_TEST(test_phase_any_iterative)
{
    int n = t_start_loop(_i);
    struct count_job c = { .k = 6 };
    struct t_record *r = t_record_new(1000);
    ck_assert_int_eq(f_set_adaptive(F_ADAPT_NONE), F_OK);
    ck_assert_int_ge(f_new_barrier(count_seq, &c), 0);
    for (long k = 0; k < 500; ++k)  /* 500 separate filaments */
        ck_assert_int_eq(f_iterative_thread(F_ANY, t_record_fn, k, k % 2, r), F_OK);
    for (long k = 500; k < 1000; ++k)  /* and as one run of 500 points */
        ck_assert_int_eq(f_iterative_thread(F_ANY, t_record_fn, k, k, r), F_OK);
    ck_assert_int_eq(f_parallel(), F_OK);
    T_ASSERT_NO_FAILURES();
    ck_assert_int_eq(c.calls, 6);
    t_record_assert_runs(r, 6);
    /* The library spreads them as it creates them: every server got some of
     * the 500 (and keeps them: nothing may move). */
    int got[8] = { 0 };
    for (long k = 0; k < 500; ++k)
        got[r->server[k]]++;
    for (int s = 0; s < n; ++s)
        ck_assert_int_gt(got[s], 0);
    t_record_free(r);
}
END_TEST

/* ----------------------------------------- consumed and recreated */

/* Each run consumes its phases; new ones can be made for the next run. */
START_TEST(test_phase_consumed_by_run)
{
    int n = t_start_loop(_i);
    for (int round = 1; round <= 5; ++round) {
        struct count_job c = { .k = round };
        atomic_long iter;
        atomic_init(&iter, 0);
        int id0 = f_new_barrier(count_seq, &c);
        int id1 = f_new_barrier(NULL, NULL);
        ck_assert_int_ge(id0, 0);
        ck_assert_int_gt(id1, id0);
        for (int s = 0; s < n; ++s)
            ck_assert_int_eq(f_iterative_thread(s, t_count_fn, 0, 0, &iter), F_OK);
        ck_assert_int_eq(f_parallel(), F_OK);
        ck_assert_int_eq(c.calls, round);
        /* Phase 0 ran `round` passes, phase 1 (the filaments') round - 1. */
        ck_assert_int_eq(t_ldl(&iter), (long)(round - 1) * n);
        ck_assert_int_eq(f_iterative_thread(0, t_count_fn, 0, 0, &iter), F_ESTATE);
        ck_assert_int_eq(f_parallel(), F_OK);
        ck_assert_int_eq(c.calls, round);
    }
}
END_TEST

/* ------------------------------------------------------------ stress */

/*
 * A small multi-phase job: three phases, pinned and F_ANY filaments, a
 * reduction and RTC filaments created in the passes; every seq checks the
 * exact totals.  Hundreds of iterations, at every server count.
 */
struct mini_job {
    int n;
    f_reduction *sum;
    atomic_long count[3];
    atomic_long rtc;
    long per_pass[3], rtc_per_cycle;
    long calls[3];
    long bad;
};

struct mini_phase {
    struct mini_job *job;
    int p;
};

static void mini_rtc(long i, long j, void *arg)
{
    struct mini_job *m = arg;
    atomic_fetch_add(&m->rtc, 1);
}

static void mini_filament(long i, long j, void *arg)
{
    struct mini_phase *ph = arg;
    struct mini_job *m = ph->job;
    atomic_fetch_add(&m->count[ph->p], 1);
    f_reduce(m->sum, (double)(ph->p + 1));
    if (ph->p == 2 && j == 0)
        T_EXPECT(f_rtc_thread((int)(i % m->n), mini_rtc, 0, 0, m) == F_OK);
}

static int mini_seq(void *arg)
{
    struct mini_phase *ph = arg;
    struct mini_job *m = ph->job;
    long c = ++m->calls[ph->p];
    if (atomic_load(&m->count[ph->p]) != c * m->per_pass[ph->p])
        m->bad++;
    if (ph->p == 2) {
        if (atomic_load(&m->rtc) != c * m->rtc_per_cycle)
            m->bad++;
        double want = (double)(m->per_pass[0] + 2 * m->per_pass[1] + 3 * m->per_pass[2]);
        if (f_reduction_value(m->sum) != want)
            m->bad++;
        f_reduction_reset(m->sum);
    }
    return ph->p == 2 && c == 5 ? F_DONE : F_NOTDONE;
}

START_TEST(test_phase_stress_small_jobs)
{
    int n = t_start_loop(_i);
    struct mini_job m = { .n = n };
    m.sum = f_new_reduction(F_SUM);
    ck_assert_ptr_nonnull(m.sum);
    atomic_init(&m.rtc, 0);
    struct mini_phase ph[3];
    for (int p = 0; p < 3; ++p) {
        atomic_init(&m.count[p], 0);
        ph[p] = (struct mini_phase){ &m, p };
        T_REQUIRE(f_new_barrier(p == 1 ? NULL : mini_seq, &ph[p]) >= 0);
        long made = 0;
        for (int s = 0; s < n; ++s)
            for (long j = 0; j < 4; ++j, ++made)
                T_REQUIRE_EQ(f_iterative_thread(s, mini_filament, s + 10L * p, j, &ph[p]), F_OK);
        for (long k = 0; k < 3; ++k, ++made)
            T_REQUIRE_EQ(f_iterative_thread(F_ANY, mini_filament, 100 + k, 0, &ph[p]), F_OK);
        m.per_pass[p] = made;
        if (p == 2)
            m.rtc_per_cycle = n + 3;
    }
    T_REQUIRE_EQ(f_parallel(), F_OK);
    T_ASSERT_NO_FAILURES();
    ck_assert_int_eq(m.bad, 0);
    ck_assert_int_eq(m.calls[0], 5);
    ck_assert_int_eq(m.calls[2], 5);
    ck_assert_int_eq(t_ldl(&m.count[1]), 5 * m.per_pass[1]);
    ck_assert_int_eq(t_ldl(&m.rtc), 5 * m.rtc_per_cycle);
}
END_TEST

/* ------------------------------------------------- adaptive placement */

/*
 * A grid of counters, one per filament: each pass adds one to its own, and
 * the barrier code checks that every counter is the number of passes so
 * far, so that a filament that ran twice in a pass, or not at all,
 * wherever it moved, is seen in that pass.  The filaments also note where
 * they ran.
 */
struct adapt_job {
    long rows, cols, passes, done;
    long *count;
    int *server;     /* where each filament ran in the last pass */
    int nservers;
    int slow;        /* server 0 runs its filaments slowly: the others take from it */
    int pinned;      /* each must run on its row's server */
    int moved;       /* a filament ran away from its row's server */
};

static int adapt_owner(const struct adapt_job *a, long i)
{
    return (int)(i * a->nservers / a->rows);
}

static void adapt_point(long i, long j, void *arg)
{
    struct adapt_job *a = arg;
    int me = f_my_server();
    if (a->slow && me == 0)
        for (volatile int k = 0; k < 300; ++k)
            ;
    a->count[i * a->cols + j]++;
    a->server[i * a->cols + j] = me;
}

static int adapt_seq(void *arg)
{
    struct adapt_job *a = arg;
    ++a->done;
    for (long k = 0; k < a->rows * a->cols; ++k) {
        T_EXPECT(a->count[k] == a->done);
        int owner = adapt_owner(a, k / a->cols);
        T_EXPECT(!a->pinned || a->server[k] == owner);
        a->moved |= a->server[k] != owner;
    }
    return a->done == a->passes ? F_DONE : F_NOTDONE;
}

/* One run of the grid's phase, created with f_set_adaptive(mode), by rows
 * on their servers (by_name) or point by point with F_ANY; return whether
 * a filament moved. */
static int adapt_run(int n, int mode, int by_name, int slow, int pinned)
{
    struct adapt_job a = { .rows = 24, .cols = 33, .passes = 40, .nservers = n, .slow = slow,
                           .pinned = pinned };
    a.count = calloc((size_t)(a.rows * a.cols), sizeof *a.count);
    a.server = calloc((size_t)(a.rows * a.cols), sizeof *a.server);
    ck_assert(a.count != NULL && a.server != NULL);
    ck_assert_int_eq(f_set_adaptive(mode), F_OK);
    ck_assert_int_eq(f_get_adaptive(), mode);
    ck_assert_int_ge(f_new_barrier(adapt_seq, &a), 0);
    for (long i = 0; i < a.rows; ++i) {
        if (by_name)
            ck_assert_int_eq(f_iterative_row(adapt_owner(&a, i), adapt_point, i, 0, a.cols, &a),
                             F_OK);
        else
            for (long j = 0; j < a.cols; ++j)
                ck_assert_int_eq(f_iterative_thread(F_ANY, adapt_point, i, j, &a), F_OK);
    }
    ck_assert_int_eq(f_set_adaptive(F_ADAPT_ANY), F_OK);
    ck_assert_int_eq(f_reset_stats(), F_OK);
    ck_assert_int_eq(f_parallel(), F_OK);
    T_ASSERT_NO_FAILURES();
    ck_assert_int_eq(a.done, a.passes);
    for (long k = 0; k < a.rows * a.cols; ++k)
        T_REQUIRE_EQ(a.count[k], a.passes);
    struct f_stats st;
    ck_assert_int_eq(f_get_stats(F_ANY, &st), F_OK);
    ck_assert_uint_eq(st.filaments_run, (unsigned long)(a.passes * a.rows * a.cols));
    free(a.count);
    free(a.server);
    return a.moved;
}

/* Every filament runs exactly once a pass, wherever it moves: strips
 * created by name with F_ADAPT_ALL, F_ANY points with the default; the
 * ends where the passes put them, or (moving) somewhere new every pass,
 * which must move some filament at 2 servers and more. */
static void adapt_each_once(int loop_index, int moving)
{
    if (moving)
        ck_assert_int_eq(setenv("FILAMENTS_TEST_MOVES", "1", 1), 0);
    int n = t_start_loop(loop_index);
    for (int slow = 0; slow < 2; ++slow) {
        int moved = adapt_run(n, F_ADAPT_ALL, 1, slow, 0);
        ck_assert(!moving || n == 1 || moved);
        moved = adapt_run(n, F_ADAPT_ANY, 0, slow, 0);
        ck_assert(!moving || n == 1 || moved);
    }
}

START_TEST(test_phase_adapt_each_once)
{
    adapt_each_once(_i, 0);
}
END_TEST

START_TEST(test_phase_adapt_each_once_moving)
{
    adapt_each_once(_i, 1);
}
END_TEST

/* What may not move stays, even where the ends move every pass: a phase
 * created with F_ADAPT_NONE, and one with filaments created by name under
 * the default F_ADAPT_ANY. */
START_TEST(test_phase_adapt_pinned)
{
    ck_assert_int_eq(setenv("FILAMENTS_TEST_MOVES", "1", 1), 0);
    int n = t_start_loop(_i);
    ck_assert_int_eq(adapt_run(n, F_ADAPT_NONE, 1, 1, 1), 0);
    ck_assert_int_eq(adapt_run(n, F_ADAPT_ANY, 1, 1, 1), 0);
}
END_TEST

static void adapt_set_in_filament(long i, long j, void *arg)
{
    T_EXPECT(f_set_adaptive(F_ADAPT_NONE) == F_ESTATE);
    T_EXPECT(f_get_adaptive() == F_ADAPT_ALL);
}

/* f_set_adaptive: the three modes, from the main thread between runs. */
START_TEST(test_phase_adapt_calls)
{
    ck_assert_int_eq(f_set_adaptive(F_ADAPT_ALL), F_ESTATE);
    ck_assert_int_eq(f_get_adaptive(), F_ESTATE);
    ck_assert_int_eq(setenv("FILAMENTS_ADAPT", "sometimes", 1), 0);
    ck_assert_int_eq(f_initialize(2), F_EINVAL);
    ck_assert_int_eq(setenv("FILAMENTS_ADAPT", "none", 1), 0);
    t_start(2);
    ck_assert_int_eq(f_get_adaptive(), F_ADAPT_NONE);
    ck_assert_int_eq(f_set_adaptive(3), F_EINVAL);
    ck_assert_int_eq(f_set_adaptive(-1), F_EINVAL);
    ck_assert_int_eq(f_get_adaptive(), F_ADAPT_NONE);
    ck_assert_int_eq(f_set_adaptive(F_ADAPT_ALL), F_OK);
    ck_assert_int_eq(f_rtc_thread(1, adapt_set_in_filament, 0, 0, NULL), F_OK);
    ck_assert_int_eq(f_parallel(), F_OK);
    T_ASSERT_NO_FAILURES();
    /* FILAMENTS_ADAPT=none pins every phase, whatever the program sets. */
    ck_assert_int_eq(setenv("FILAMENTS_TEST_MOVES", "1", 1), 0);
    f_finalize();
    t_start(2);
    ck_assert_int_eq(adapt_run(2, F_ADAPT_ALL, 1, 1, 1), 0);
    f_finalize();
    unsetenv("FILAMENTS_ADAPT");
    t_start(2);
    ck_assert_int_eq(f_get_adaptive(), F_ADAPT_ANY);
}
END_TEST

/* ------------------------------------------------- handing over a core */

#define HANDOFF_MAX_SERVERS 4  /* enough for trades among several */

enum { HANDOFF_ROWS = 16, HANDOFF_COLS = 8, HANDOFF_MOST_PASSES = 20000 };

struct handoff_job {
    long count[HANDOFF_ROWS][HANDOFF_COLS];
    int first_cpu[HANDOFF_MAX_SERVERS]; /* each server's CPU at its first filament, or -1 */
    int moved[HANDOFF_MAX_SERVERS];     /* it ran on another since; each server its own */
    long pass;                          /* passes done: the barrier code's count */
    long passes;                        /* the most passes */
    int until_moved;                    /* end with the pass in which a server moved */
};

/* A point of a few microseconds, so that a server taken off its core is
 * most likely inside a pass, not waiting at the barrier. */
static void handoff_point(long i, long j, void *arg)
{
    struct handoff_job *h = arg;
    int me = f_my_server(), cpu = sched_getcpu();
    if (h->first_cpu[me] < 0)
        h->first_cpu[me] = cpu;
    else if (cpu != h->first_cpu[me])
        h->moved[me] = 1;
    h->count[i][j]++;
    for (volatile int k = 0; k < 500; ++k)
        ;
}

static int handoff_moved(const struct handoff_job *h)
{
    int moved = 0;
    for (int s = 0; s < HANDOFF_MAX_SERVERS; ++s)
        moved |= h->moved[s];
    return moved;
}

static int handoff_seq(void *arg)
{
    struct handoff_job *h = arg;
    ++h->pass;
    for (int i = 0; i < HANDOFF_ROWS; ++i)
        for (int j = 0; j < HANDOFF_COLS; ++j)
            T_EXPECT(h->count[i][j] == h->pass);
    return h->pass == h->passes || (h->until_moved && handoff_moved(h)) ? F_DONE : F_NOTDONE;
}

static void handoff_where(long server, long unused, void *arg)
{
    int *cpu = arg;
    cpu[server] = sched_getcpu();
}

/* A busy loop on one CPU, the noisy neighbour, until told to stop. */
struct spinner {
    int cpu;
    atomic_int stop;
    pthread_t thread;
};

static void *spin(void *arg)
{
    struct spinner *sp = arg;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(sp->cpu, &one);
    if (pthread_setaffinity_np(pthread_self(), sizeof one, &one) == 0)
        while (!atomic_load(&sp->stop))
            ;
    return NULL;
}

/* The k-th CPU of the set. */
static int nth_cpu(const cpu_set_t *set, int k)
{
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
        if (CPU_ISSET(cpu, set) && k-- == 0)
            return cpu;
    return -1;
}

/* One run of the phase beside a busy loop on the last server's CPU, then,
 * quiet and with no trades (F_ADAPT_NONE), one RTC filament per server
 * noting its CPU: every filament ran once a pass, and the servers are
 * still bound one to a CPU each, among the allowed.  Return whether a
 * server changed CPUs. */
static int handoff_run(int n, const cpu_set_t *allowed, int until_moved, long passes)
{
    struct handoff_job h = { .passes = passes, .until_moved = until_moved };
    for (int s = 0; s < HANDOFF_MAX_SERVERS; ++s)
        h.first_cpu[s] = -1;
    ck_assert_int_ge(f_new_barrier(handoff_seq, &h), 0);
    for (long i = 0; i < HANDOFF_ROWS; ++i)
        ck_assert_int_eq(f_iterative_row((int)(i * n / HANDOFF_ROWS), handoff_point, i, 0,
                                         HANDOFF_COLS, &h),
                         F_OK);
    struct spinner sp = { .cpu = nth_cpu(allowed, n - 1) };
    atomic_init(&sp.stop, 0);
    ck_assert_int_eq(pthread_create(&sp.thread, NULL, spin, &sp), 0);
    ck_assert_int_eq(f_parallel(), F_OK);
    atomic_store(&sp.stop, 1);
    ck_assert_int_eq(pthread_join(sp.thread, NULL), 0);
    T_ASSERT_NO_FAILURES();
    ck_assert_int_le(h.pass, passes);
    int cpu[HANDOFF_MAX_SERVERS];
    int mode = f_get_adaptive();
    ck_assert_int_eq(f_set_adaptive(F_ADAPT_NONE), F_OK);
    for (int s = 0; s < n; ++s)
        ck_assert_int_eq(f_rtc_thread(s, handoff_where, s, 0, cpu), F_OK);
    ck_assert_int_eq(f_parallel(), F_OK);
    ck_assert_int_eq(f_set_adaptive(mode), F_OK);
    for (int s = 0; s < n; ++s) {
        ck_assert(CPU_ISSET(cpu[s], allowed));
        for (int t = 0; t < s; ++t)
            ck_assert_int_ne(cpu[s], cpu[t]);
    }
    return handoff_moved(&h);
}

/* Bound one to a CPU, a server waiting at the barrier gives its CPU to a
 * late one that a busy loop took off its own: the late server goes on
 * there, each filament still runs once a pass, and the servers stay one
 * to a CPU.  FILAMENTS_ADAPT=none keeps every server on its CPU.  Needs
 * 2 CPUs. */
START_TEST(test_phase_handoff)
{
    cpu_set_t allowed;
    ck_assert_int_eq(sched_getaffinity(0, sizeof allowed, &allowed), 0);
    int cpus = CPU_COUNT(&allowed);
    int n = t_servers_cap(cpus < HANDOFF_MAX_SERVERS ? cpus : HANDOFF_MAX_SERVERS);
    if (n < 2)
        return;
    ck_assert_int_eq(setenv("FILAMENTS_BIND", "1", 1), 0);
    t_start(n);
    /* Under valgrind (T_SCALE) one thread runs at a time and the others
     * sleep until their turn: none is runnable off its core, so none is
     * traded, and the run just ends. */
    int moved = handoff_run(n, &allowed, 1, t_scaled(HANDOFF_MOST_PASSES));
    ck_assert(moved || t_scaled_down());
    f_finalize();
    ck_assert_int_eq(setenv("FILAMENTS_ADAPT", "none", 1), 0);
    t_start(n);
    ck_assert(!handoff_run(n, &allowed, 0, 100));
}
END_TEST

Suite *make_suite(void)
{
    Suite *s = suite_create("phase");
    TCase *core = t_tcase(s, "core");
    tcase_add_loop_test(core, test_phase_seq_counts_passes, 0, T_NCOUNTS);
    tcase_add_loop_test(core, test_phase_empty_phase, 0, T_NCOUNTS);
    tcase_add_loop_test(core, test_phase_one_server_busy, 0, T_NCOUNTS);
    tcase_add_loop_test(core, test_phase_circular_order, 0, T_NCOUNTS);
    tcase_add_loop_test(core, test_phase_null_seq, 0, T_NCOUNTS);
    tcase_add_loop_test(core, test_phase_barrier_runs_alone, 0, T_NCOUNTS);
    tcase_add_loop_test(core, test_phase_rtc_created_in_pass, 0, T_NCOUNTS);
    tcase_add_loop_test(core, test_phase_rtc_chunks_in_pass, 0, T_NCOUNTS);
    tcase_add_loop_test(core, test_phase_with_rtc_from_main, 0, T_NCOUNTS);
    tcase_add_loop_test(core, test_phase_back_and_forth, 0, T_NCOUNTS);
    tcase_add_loop_test(core, test_phase_back_and_forth_rows, 0, T_NCOUNTS);
    tcase_add_loop_test(core, test_phase_back_and_forth_singles, 0, T_NCOUNTS);
    tcase_add_loop_test(core, test_phase_range_version, 0, T_NCOUNTS);
    tcase_add_loop_test(core, test_phase_range_version_macro, 0, T_NCOUNTS);
    tcase_add_loop_test(core, test_phase_rows, 0, T_NCOUNTS);
    tcase_add_loop_test(core, test_phase_any_iterative, 0, T_NCOUNTS);
    tcase_add_loop_test(core, test_phase_consumed_by_run, 0, T_NCOUNTS);
    tcase_add_loop_test(core, test_phase_adapt_each_once, 0, T_NCOUNTS);
    tcase_add_loop_test(core, test_phase_adapt_each_once_moving, 0, T_NCOUNTS);
    tcase_add_loop_test(core, test_phase_adapt_pinned, 0, T_NCOUNTS);
    tcase_add_test(core, test_phase_adapt_calls);
    tcase_add_test(core, test_phase_handoff);
    TCase *limits = t_tcase(s, "limits");
    tcase_add_loop_test(limits, test_phase_j_limits, 0, T_NCOUNTS);
    tcase_add_loop_test(limits, test_phase_many_phases, 0, T_NCOUNTS);
    tcase_add_loop_test(limits, test_phase_tree_shapes, 0, 22);
    tcase_add_test(limits, test_phase_deep_tree);
    TCase *stress = t_tcase(s, "stress");
    tcase_add_loop_test(stress, test_phase_stress_small_jobs, 0, 500);
    return s;
}
