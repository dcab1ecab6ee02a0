/*
 * check_rtc.c - suite "rtc": run-to-completion filaments [paper §2.1, §4.3].
 * Placement on a given server, F_ANY (each runs once; idle servers steal),
 * filaments that create filaments while the run goes on (on their own
 * server, on another one through its inbox, F_ANY), long chains across the
 * servers, arguments passed exactly, the statistics of a run, rows
 * (which the library packs) run as created, and filaments placed by name
 * that move under F_ADAPT_ALL.
 */
#define _POSIX_C_SOURCE 200809L  /* setenv */
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "tests.h"

/* A filament given server s runs on s; it runs once, with its arguments. */
START_TEST(test_rtc_placement)
{
    int n = t_start_loop(_i);
    struct t_record *r = t_record_new(1000L * n);
    for (long k = 0; k < r->n; ++k)
        T_REQUIRE_EQ(f_rtc_thread((int)(k % n), t_record_fn, k, 0, r), F_OK);
    ck_assert_int_eq(f_parallel(), F_OK);
    T_ASSERT_NO_FAILURES();
    t_record_assert_runs(r, 1);
    for (long k = 0; k < r->n; ++k)
        T_REQUIRE_EQ(r->server[k], k % n);
    t_record_free(r);
}
END_TEST

/* Past the first chunk on one server: 300 and 100000 pinned filaments
 * (5000 under T_SCALE=5, still many chunks). */
START_TEST(test_rtc_many_on_one_server)
{
    int n = t_start_loop(_i);
    const long sizes[] = { 300, t_scaled(100000) };
    for (int z = 0; z < 2; ++z) {
        struct t_record *r = t_record_new(sizes[z]);
        for (long k = 0; k < r->n; ++k)
            T_REQUIRE_EQ(f_rtc_thread(n - 1, t_record_fn, k, 0, r), F_OK);
        ck_assert_int_eq(f_parallel(), F_OK);
        T_ASSERT_NO_FAILURES();
        t_record_assert_runs(r, 1);
        for (long k = 0; k < r->n; ++k)
            T_REQUIRE_EQ(r->server[k], n - 1);
        t_record_free(r);
    }
}
END_TEST

/* The arguments arrive exactly, extremes included. */
struct args_seen {
    atomic_int count;
    atomic_int bad;
};

static void check_args(long i, long j, void *arg)
{
    struct args_seen *a = arg;
    atomic_fetch_add(&a->count, 1);
    int ok = (i == LONG_MIN && j == LONG_MAX) || (i == LONG_MAX && j == LONG_MIN) ||
             (i == 0 && j == -1) || (i == -1 && j == 0);
    if (!ok)
        atomic_fetch_add(&a->bad, 1);
}

static void check_null_arg(long i, long j, void *arg)
{
    T_EXPECT(arg == NULL && i == 7 && j == 8);
}

START_TEST(test_rtc_arguments)
{
    int n = t_start_loop(_i);
    struct args_seen a;
    atomic_init(&a.count, 0);
    atomic_init(&a.bad, 0);
    for (int s = -1; s < n; ++s) {  /* -1 is F_ANY */
        ck_assert_int_eq(f_rtc_thread(s, check_args, LONG_MIN, LONG_MAX, &a), F_OK);
        ck_assert_int_eq(f_rtc_thread(s, check_args, LONG_MAX, LONG_MIN, &a), F_OK);
        ck_assert_int_eq(f_rtc_thread(s, check_args, 0, -1, &a), F_OK);
        ck_assert_int_eq(f_rtc_thread(s, check_args, -1, 0, &a), F_OK);
        ck_assert_int_eq(f_rtc_thread(s, check_null_arg, 7, 8, NULL), F_OK);
    }
    ck_assert_int_eq(f_parallel(), F_OK);
    T_ASSERT_NO_FAILURES();
    ck_assert_int_eq(t_ldi(&a.count), 4 * (n + 1));
    ck_assert_int_eq(t_ldi(&a.bad), 0);
}
END_TEST

/* F_ANY from the main thread: every filament runs exactly once, somewhere. */
START_TEST(test_rtc_any_once)
{
    int n = t_start_loop(_i);
    struct t_record *r = t_record_new(20000);
    for (long k = 0; k < r->n; ++k)
        T_REQUIRE_EQ(f_rtc_thread(F_ANY, t_record_fn, k, 0, r), F_OK);
    ck_assert_int_eq(f_parallel(), F_OK);
    T_ASSERT_NO_FAILURES();
    t_record_assert_runs(r, 1);
    for (long k = 0; k < r->n; ++k)
        T_REQUIRE(r->server[k] >= 0 && r->server[k] < n);
    struct f_stats st;
    ck_assert_int_eq(f_get_stats(F_ANY, &st), F_OK);
    ck_assert_uint_eq(st.filaments_run, (unsigned long)r->n);
    t_record_free(r);
}
END_TEST

/*
 * Imbalance: one filament on server 0 creates 200 F_ANY filaments, and
 * those that run on server 0 wait until one has run elsewhere.  So some
 * must be stolen by the idle servers: steals > 0, and the stolen ones ran
 * on other servers.  Every filament still runs exactly once.
 */
struct steal_job {
    struct t_record *r;
    atomic_int elsewhere;
    atomic_int gave_up;
};

static void steal_leaf(long i, long j, void *arg)
{
    struct steal_job *sj = arg;
    t_record_hit(sj->r, i);
    if (f_my_server() != 0)
        atomic_store(&sj->elsewhere, 1);
    else if (f_num_servers() > 1 && !t_wait_flag(&sj->elsewhere))
        atomic_store(&sj->gave_up, 1);
}

static void steal_root(long i, long j, void *arg)
{
    struct steal_job *sj = arg;
    for (long k = 0; k < sj->r->n; ++k)
        T_EXPECT(f_rtc_thread(F_ANY, steal_leaf, k, 0, sj) == F_OK);
}

START_TEST(test_rtc_any_idle_servers_steal)
{
    int n = t_start_loop(_i);
    for (int round = 0; round < 3; ++round) {
        struct steal_job sj = { .r = t_record_new(200) };
        atomic_init(&sj.elsewhere, 0);
        atomic_init(&sj.gave_up, 0);
        ck_assert_int_eq(f_reset_stats(), F_OK);
        ck_assert_int_eq(f_rtc_thread(0, steal_root, 0, 0, &sj), F_OK);
        ck_assert_int_eq(f_parallel(), F_OK);
        T_ASSERT_NO_FAILURES();
        t_record_assert_runs(sj.r, 1);
        struct f_stats st;
        ck_assert_int_eq(f_get_stats(F_ANY, &st), F_OK);
        ck_assert_uint_eq(st.filaments_run, 201);
        if (n > 1) {
            ck_assert_int_eq(t_ldi(&sj.gave_up), 0);
            ck_assert_int_eq(t_ldi(&sj.elsewhere), 1);
            ck_assert_uint_gt(st.steals, 0);
            ck_assert_uint_ge(st.steal_attempts, 1);
            long away = 0;
            for (long k = 0; k < sj.r->n; ++k)
                away += sj.r->server[k] != 0;
            ck_assert_int_gt(away, 0);
            ck_assert_uint_eq(st.steals, (unsigned long)away);
            struct f_stats s0;
            ck_assert_int_eq(f_get_stats(0, &s0), F_OK);
            ck_assert_uint_eq(s0.steals, 0);
        } else {
            ck_assert_uint_eq(st.steals, 0);
        }
        t_record_free(sj.r);
    }
}
END_TEST

/*
 * With F_ADAPT_ALL at f_parallel, filaments created by name move too: all
 * on server 0, in rows (which the library packs, in small chunks here) and
 * single points, and those that run on server 0 wait until one has run
 * elsewhere, so the idle servers must take some.  Each runs exactly once.
 * Under the default F_ADAPT_ANY, and with FILAMENTS_ADAPT=none whatever
 * the program sets, they all run on server 0.
 */
enum { MOVE_ROWS = 40, MOVE_ROW = 50 };

struct move_job {
    struct t_record *points, *rows; /* single points by i; rows by i * MOVE_ROW + j */
    int must_move;
    atomic_int elsewhere;
    atomic_int gave_up;
};

static void move_ran(struct move_job *mj)
{
    if (f_my_server() != 0)
        atomic_store(&mj->elsewhere, 1);
    else if (mj->must_move && !t_wait_flag(&mj->elsewhere))
        atomic_store(&mj->gave_up, 1);
}

static void move_point(long i, long j, void *arg)
{
    struct move_job *mj = arg;
    t_record_hit(mj->points, i);
    move_ran(mj);
}

static void move_row_point(long i, long j, void *arg)
{
    struct move_job *mj = arg;
    t_record_hit(mj->rows, i * MOVE_ROW + j);
    move_ran(mj);
}

/* One run of the job with f_set_adaptive(mode): how many filaments ran
 * away from server 0. */
static long move_run(int n, int mode, int must_move)
{
    struct move_job mj = { .points = t_record_new(MOVE_ROWS),
                           .rows = t_record_new(MOVE_ROWS * MOVE_ROW),
                           .must_move = must_move && n > 1 };
    atomic_init(&mj.elsewhere, 0);
    atomic_init(&mj.gave_up, 0);
    ck_assert_int_eq(f_set_adaptive(mode), F_OK);
    ck_assert_int_eq(f_reset_stats(), F_OK);
    for (long i = 0; i < MOVE_ROWS; ++i) {
        T_REQUIRE_EQ(f_rtc_thread(0, move_point, i, 0, &mj), F_OK);
        for (long j = 0; j < MOVE_ROW; ++j)
            T_REQUIRE_EQ(f_rtc_thread(0, move_row_point, i, j, &mj), F_OK);
    }
    ck_assert_int_eq(f_parallel(), F_OK);
    T_ASSERT_NO_FAILURES();
    ck_assert_int_eq(t_ldi(&mj.gave_up), 0);
    long away = 0;
    struct t_record *records[] = { mj.points, mj.rows };
    for (int r = 0; r < 2; ++r) {
        t_record_assert_runs(records[r], 1);
        for (long k = 0; k < records[r]->n; ++k)
            away += records[r]->server[k] != 0;
        t_record_free(records[r]);
    }
    /* Every filament away was taken, packed rows counted by their points. */
    struct f_stats st;
    ck_assert_int_eq(f_get_stats(F_ANY, &st), F_OK);
    ck_assert_uint_eq(st.steals, (unsigned long)away);
    return away;
}

START_TEST(test_rtc_adapt_all_moves_named)
{
    ck_assert_int_eq(setenv("FILAMENTS_TEST_CHUNK", "4,64", 1), 0);
    int n = t_start_loop(_i);
    long away = move_run(n, F_ADAPT_ALL, 1);
    ck_assert(n == 1 ? away == 0 : away > 0);
    ck_assert_int_eq(move_run(n, F_ADAPT_ANY, 0), 0);
    f_finalize();
    ck_assert_int_eq(setenv("FILAMENTS_ADAPT", "none", 1), 0);
    t_start(n);
    ck_assert_int_eq(move_run(n, F_ADAPT_ALL, 0), 0);
    unsetenv("FILAMENTS_ADAPT");
    unsetenv("FILAMENTS_TEST_CHUNK");
}
END_TEST

/*
 * The same under load, many times: every server's pinned queue, in chunks
 * of 1 to 8 descriptors, holds rows and single points, claimed by its
 * owner and by the others, and each filament creates one more on the
 * server that runs it, pushed while the others claim from that queue.
 * Each of both runs exactly once, in every round.
 */
enum { STRESS_PER_SERVER = 40 };

struct move_stress {
    struct t_record *made, *children;
};

static void stress_child(long k, long j, void *arg)
{
    t_record_hit(((struct move_stress *)arg)->children, k);
}

static void stress_made(long i, long j, void *arg)
{
    struct move_stress *ms = arg;
    long k = i + j;
    t_record_hit(ms->made, k);
    T_EXPECT(f_rtc_thread(f_my_server(), stress_child, k, 0, ms) == F_OK);
}

START_TEST(test_rtc_adapt_all_stress)
{
    ck_assert_int_eq(setenv("FILAMENTS_TEST_CHUNK", "1,8", 1), 0);
    int n = t_start_loop(_i);
    ck_assert_int_eq(f_set_adaptive(F_ADAPT_ALL), F_OK);
    for (long round = t_scaled(1000); round > 0; --round) {
        long total = (long)n * STRESS_PER_SERVER;
        struct move_stress ms = { t_record_new(total), t_record_new(total) };
        /* Filament k = i + j: rows of 4 (same i, consecutive j) and single
         * points (j = 0 alone), in turn. */
        for (long k = 0; k < total; k += 5) {
            int server = (int)(k / STRESS_PER_SERVER);
            T_REQUIRE_EQ(f_rtc_thread(server, stress_made, k, 0, &ms), F_OK);
            for (long j = 0; j < 4 && k + 1 + j < total; ++j)
                T_REQUIRE_EQ(f_rtc_thread(server, stress_made, k + 1, j, &ms), F_OK);
        }
        ck_assert_int_eq(f_parallel(), F_OK);
        T_ASSERT_NO_FAILURES();
        t_record_assert_runs(ms.made, 1);
        t_record_assert_runs(ms.children, 1);
        t_record_free(ms.made);
        t_record_free(ms.children);
    }
    unsetenv("FILAMENTS_TEST_CHUNK");
}
END_TEST

/*
 * Filaments create filaments during the run: each node of a tree makes
 * three children, one on its own server, one on the next server (through
 * that server's inbox) and one F_ANY, down to depth 7: 3^7 leaves.  Pinned
 * children run where they were sent.
 */
struct tree_job {
    int n;
    struct t_record *r;  /* node ids: heap numbering in base 3 */
};

enum { TREE_DEPTH = 7 };

static void tree_node(long id, long depth, void *arg)
{
    struct tree_job *t = arg;
    t_record_hit(t->r, id);
    if (depth == TREE_DEPTH)
        return;
    int me = f_my_server();
    T_EXPECT(f_rtc_thread(me, tree_node, 3 * id + 1, depth + 1, t) == F_OK);
    T_EXPECT(f_rtc_thread((me + 1) % t->n, tree_node, 3 * id + 2, depth + 1, t) == F_OK);
    T_EXPECT(f_rtc_thread(F_ANY, tree_node, 3 * id + 3, depth + 1, t) == F_OK);
}

START_TEST(test_rtc_create_during_run)
{
    int n = t_start_loop(_i);
    long nodes = 0;
    for (long p = 1, d = 0; d <= TREE_DEPTH; ++d, p *= 3)
        nodes += p;
    for (int root = 0; root < n; root += (n > 2 ? n - 1 : 1)) {
        struct tree_job t = { .n = n, .r = t_record_new(nodes) };
        ck_assert_int_eq(f_rtc_thread(root, tree_node, 0, 0, &t), F_OK);
        ck_assert_int_eq(f_parallel(), F_OK);
        T_ASSERT_NO_FAILURES();
        t_record_assert_runs(t.r, 1);
        ck_assert_int_eq(t.r->server[0], root);
        /* A child numbered 3p+1 ran on its parent's server, 3p+2 on the next. */
        for (long id = 1; id < nodes; ++id) {
            long parent = (id - 1) / 3;
            if (id % 3 == 1)
                T_REQUIRE_EQ(t.r->server[id], t.r->server[parent]);
            else if (id % 3 == 2)
                T_REQUIRE_EQ(t.r->server[id], (t.r->server[parent] + 1) % n);
            else
                T_REQUIRE(t.r->server[id] >= 0 && t.r->server[id] < n);
        }
        t_record_free(t.r);
    }
}
END_TEST

/*
 * Tiny queue chunks (FILAMENTS_TEST_CHUNK, for tests): the first of MIN
 * descriptors, doubling up to MAX, then MAX after MAX, so that a few
 * thousand filaments cross a chunk every few pushes, takes and claims, at
 * the largest size most of the time; the second run reuses the chunks the
 * first kept.  Pinned from main (the inline cursor), F_ANY (claimed across
 * servers) and created by filaments while the run goes on (own queue,
 * inboxes, F_ANY): each runs exactly once, where it was placed.
 */
START_TEST(test_rtc_tiny_chunks)
{
    static const char *chunks[] = { "1,1", "1,4", "3,5", "2,16" };
    long nodes = 0;
    for (long p = 1, d = 0; d <= TREE_DEPTH; ++d, p *= 3)
        nodes += p;
    for (size_t c = 0; c < sizeof chunks / sizeof *chunks; ++c) {
        ck_assert_int_eq(setenv("FILAMENTS_TEST_CHUNK", chunks[c], 1), 0);
        int n = t_start(t_servers_cap(_i + 1));
        for (int run = 0; run < 2; ++run) {
            struct t_record *r = t_record_new(3000);
            struct tree_job t = { .n = n, .r = t_record_new(nodes) };
            for (long k = 0; k < r->n; ++k)
                T_REQUIRE_EQ(f_rtc_thread(k % 3 == 0 ? F_ANY : (int)(k % n), t_record_fn, k, 0, r),
                             F_OK);
            ck_assert_int_eq(f_rtc_thread(n - 1, tree_node, 0, 0, &t), F_OK);
            ck_assert_int_eq(f_parallel(), F_OK);
            T_ASSERT_NO_FAILURES();
            t_record_assert_runs(r, 1);
            t_record_assert_runs(t.r, 1);
            for (long k = 0; k < r->n; ++k)
                T_REQUIRE(k % 3 == 0 ? r->server[k] >= 0 && r->server[k] < n
                                     : r->server[k] == k % n);
            t_record_free(t.r);
            t_record_free(r);
        }
        f_finalize();
    }
}
END_TEST

/* A chain: filament k creates k+1 on the next server, 100000 long (T_SCALE
 * shortens it: under valgrind each link is a switch between threads). */
struct chain_job {
    int n;
    long length;
    int any;  /* create the next one F_ANY instead */
    struct t_record *r;
};

static void chain_link(long k, long j, void *arg)
{
    struct chain_job *c = arg;
    t_record_hit(c->r, k);
    if (c->any == 0)
        T_EXPECT(f_my_server() == (int)(k % c->n));
    if (k + 1 < c->length) {
        int to = c->any ? F_ANY : (int)((k + 1) % c->n);
        T_EXPECT(f_rtc_thread(to, chain_link, k + 1, 0, c) == F_OK);
    }
}

START_TEST(test_rtc_deep_chain)
{
    int n = t_start_loop(_i);
    for (int any = 0; any < 2; ++any) {
        struct chain_job c = { .n = n, .length = t_scaled(100000), .any = any };
        c.r = t_record_new(c.length);
        ck_assert_int_eq(f_rtc_thread(0, chain_link, 0, 0, &c), F_OK);
        ck_assert_int_eq(f_parallel(), F_OK);
        T_ASSERT_NO_FAILURES();
        t_record_assert_runs(c.r, 1);
        struct f_stats st;
        ck_assert_int_eq(f_get_stats(F_ANY, &st), F_OK);
        t_record_free(c.r);
        ck_assert_int_eq(f_reset_stats(), F_OK);
    }
}
END_TEST

/* Several chains at once, one starting on each server, through the inboxes. */
struct chains_job {
    int n;
    long length;
    atomic_long *links;  /* per chain */
};

static void chains_link(long chain, long k, void *arg)
{
    struct chains_job *c = arg;
    atomic_fetch_add(&c->links[chain], 1);
    T_EXPECT(f_my_server() == (int)((chain + k) % c->n));
    if (k + 1 < c->length)
        T_EXPECT(f_rtc_thread((int)((chain + k + 1) % c->n), chains_link, chain, k + 1, c) ==
                 F_OK);
}

START_TEST(test_rtc_concurrent_chains)
{
    int n = t_start_loop(_i);
    struct chains_job c = { .n = n, .length = 20000 };
    atomic_long links[8];
    c.links = links;
    for (int s = 0; s < n; ++s) {
        atomic_init(&links[s], 0);
        ck_assert_int_eq(f_rtc_thread(s, chains_link, s, 0, &c), F_OK);
    }
    ck_assert_int_eq(f_parallel(), F_OK);
    T_ASSERT_NO_FAILURES();
    for (int s = 0; s < n; ++s)
        ck_assert_int_eq(t_ldl(&links[s]), c.length);
}
END_TEST

/* Every server sends many filaments to every server (the inboxes under load). */
struct all_to_all {
    int n;
    long per_pair;
    atomic_long received[8][8];  /* [from][to] */
};

static void a2a_receive(long from, long to, void *arg)
{
    struct all_to_all *a = arg;
    T_EXPECT(f_my_server() == to);
    atomic_fetch_add(&a->received[from][to], 1);
}

static void a2a_send(long from, long j, void *arg)
{
    struct all_to_all *a = arg;
    for (long k = 0; k < a->per_pair; ++k)
        for (int to = 0; to < a->n; ++to)
            T_EXPECT(f_rtc_thread(to, a2a_receive, from, to, a) == F_OK);
}

START_TEST(test_rtc_all_to_all)
{
    int n = t_start_loop(_i);
    struct all_to_all *a = calloc(1, sizeof *a);
    ck_assert_ptr_nonnull(a);
    a->n = n;
    a->per_pair = 5000;
    for (int s = 0; s < n; ++s)
        ck_assert_int_eq(f_rtc_thread(s, a2a_send, s, 0, a), F_OK);
    ck_assert_int_eq(f_parallel(), F_OK);
    T_ASSERT_NO_FAILURES();
    for (int f = 0; f < n; ++f)
        for (int t = 0; t < n; ++t)
            ck_assert_int_eq(t_ldl(&a->received[f][t]), a->per_pair);
    free(a);
}
END_TEST

/* One filament creates 100000 F_ANY ones; the others steal while it pushes. */
static void any_burst(long i, long j, void *arg)
{
    struct t_record *r = arg;
    for (long k = 0; k < r->n; ++k)
        T_EXPECT(f_rtc_thread(F_ANY, t_record_fn, k, 0, r) == F_OK);
}

START_TEST(test_rtc_any_burst_from_filament)
{
    int n = t_start_loop(_i);
    struct t_record *r = t_record_new(100000);
    ck_assert_int_eq(f_rtc_thread(n - 1, any_burst, 0, 0, r), F_OK);
    ck_assert_int_eq(f_parallel(), F_OK);
    T_ASSERT_NO_FAILURES();
    t_record_assert_runs(r, 1);
    t_record_free(r);
}
END_TEST

/*
 * Rows.  The library packs what the main thread creates in rows (same fn,
 * i and arg, consecutive j) once a chunk fills (rtc.c): whatever the mix,
 * each server must still run exactly what it was given, in the order it was
 * given.  Every filament logs a value made of its fn, i, j and arg, and
 * main keeps the same values in creation order.
 */
#define ROW_MAX 700     /* rows across the 256-slot first chunk, and shorter */

struct row_job {
    struct t_logs *logs;
    long *want[F_RTC_CURSORS_];
    size_t nwant[F_RTC_CURSORS_];
    int arg[2];
    long last_i[F_RTC_CURSORS_], next_j[F_RTC_CURSORS_];  /* per server: where to go on */
    atomic_long any_ran;
    atomic_long range_calls;
};

static long row_value(int fn, long i, long j, int arg)
{
    unsigned long v = ((unsigned long)i * 1000003u + (unsigned long)j) * 4u;
    return (long)(v + (unsigned long)(fn * 2 + arg));
}

static int row_arg(struct row_job *job, void *arg)
{
    return arg == &job->arg[1];
}

/* Two point functions (a row never mixes them), from the arg's job. */
static struct row_job *row_job_of(void *arg)
{
    int *a = arg;
    return (struct row_job *)((char *)(a - *a) - offsetof(struct row_job, arg));
}

static void row_point0(long i, long j, void *arg)
{
    struct row_job *job = row_job_of(arg);
    t_log(job->logs, row_value(0, i, j, row_arg(job, arg)));
}

static void row_point1(long i, long j, void *arg)
{
    struct row_job *job = row_job_of(arg);
    t_log(job->logs, row_value(1, i, j, row_arg(job, arg)));
}

static void row_range1(long i, long j_begin, long j_end, void *arg)
{
    atomic_fetch_add(&row_job_of(arg)->range_calls, 1);
    for (long j = j_begin; j < j_end; ++j)
        row_point1(i, j, arg);
}

static void row_vararg(const f_value *args)
{
    struct row_job *job = args[0].p;
    t_log(job->logs, row_value(2, args[1].l, args[2].l, 0));
}

static void row_any(long i, long j, void *arg)
{
    atomic_fetch_add(&((struct row_job *)arg)->any_ran, 1);
}

static void row_want(struct row_job *job, int server, long v)
{
    T_REQUIRE(job->nwant[server] < job->logs->cap);
    job->want[server][job->nwant[server]++] = v;
}

/* One creation step of random shape on server s; how many filaments.
 * Shape 3 goes on where s's last row stopped, with the same fn and arg or
 * not; shape 7 crosses LONG_MAX (where no row may go on). */
static long row_create(struct row_job *job, int s, unsigned *seed)
{
    int shape = rand_r(seed) % 8, fn = rand_r(seed) % 2, a = rand_r(seed) % 2;
    f_func point = fn ? row_point1 : row_point0;
    long i = shape == 3 ? job->last_i[s] : rand_r(seed) % 3;
    long j0 = shape == 3   ? job->next_j[s]
              : shape == 7 ? LONG_MAX - rand_r(seed) % 5
                           : rand_r(seed) % 50;
    long len = 1 + rand_r(seed) % ROW_MAX;
    if (shape == 5) {
        T_REQUIRE_EQ(f_rtc_vthread(s, row_vararg, "pll", job, i, j0), F_OK);
        row_want(job, s, row_value(2, i, j0, 0));
        return 1;
    }
    if (shape == 6) {
        T_REQUIRE_EQ(f_rtc_thread(F_ANY, row_any, i, j0, job), F_OK);
        return 1;
    }
    for (long k = 0; k < len; ++k) {
        long j = (long)((unsigned long)j0 + (unsigned long)k);  /* LONG_MAX, then LONG_MIN */
        if (shape == 4 && k % 3 == 2)
            j += 1;    /* a gap */
        T_REQUIRE_EQ(f_rtc_thread(s, point, i, j, &job->arg[a]), F_OK);
        row_want(job, s, row_value(fn, i, j, a));
        job->last_i[s] = i;
        job->next_j[s] = (long)((unsigned long)j + 1);
    }
    return len;
}

static void row_job_init(struct row_job *job, int n, size_t cap)
{
    job->logs = t_logs_new(n, cap);
    for (int s = 0; s < n; ++s) {
        job->want[s] = malloc(cap * sizeof(long));
        ck_assert_ptr_nonnull(job->want[s]);
        job->nwant[s] = 0;
        job->last_i[s] = job->next_j[s] = 0;
    }
    job->arg[0] = 0;
    job->arg[1] = 1;
    atomic_init(&job->any_ran, 0);
    atomic_init(&job->range_calls, 0);
}

static void row_job_free(struct row_job *job, int n)
{
    for (int s = 0; s < n; ++s)
        free(job->want[s]);
    t_logs_free(job->logs);
}

/* Create `steps` random steps over the servers, run, compare; return the
 * filaments created. */
static long rows_run_and_check(struct row_job *job, int n, int steps, unsigned seed)
{
    long created = 0, any = 0;
    t_logs_clear(job->logs);
    for (int s = 0; s < n; ++s)
        job->nwant[s] = 0;
    atomic_store(&job->any_ran, 0);
    for (int k = 0; k < steps; ++k) {
        int s = rand_r(&seed) % n;
        size_t before = job->nwant[s];
        long made = row_create(job, s, &seed);
        created += made;
        if (job->nwant[s] == before)
            any += made;
    }
    ck_assert_int_eq(f_parallel(), F_OK);
    T_ASSERT_NO_FAILURES();
    ck_assert_int_eq(t_ldl(&job->any_ran), any);
    for (int s = 0; s < n; ++s) {
        ck_assert_uint_eq(job->logs->len[s], job->nwant[s]);
        for (size_t k = 0; k < job->nwant[s]; ++k)
            if (job->logs->v[s][k] != job->want[s][k])
                ck_abort_msg("server %d, filament %zu of %zu: ran %ld, created %ld", s, k,
                             job->nwant[s], job->logs->v[s][k], job->want[s][k]);
    }
    return created;
}

START_TEST(test_rtc_rows_order)
{
    int n = t_start_loop(_i);
    int steps = (int)t_scaled(400);
    struct row_job job;
    row_job_init(&job, n, (size_t)steps * ROW_MAX);
    ck_assert_int_eq(f_reset_stats(), F_OK);
    long created = 0;
    for (unsigned seed = 1; seed <= 3; ++seed)
        created += rows_run_and_check(&job, n, steps, seed);
    /* Each point of a packed row counts as a filament run. */
    struct f_stats sum;
    ck_assert_int_eq(f_get_stats(F_ANY, &sum), F_OK);
    ck_assert_uint_eq(sum.filaments_run, (unsigned long)created);
    /* Packed rows and vararg blocks that never run: f_finalize frees them
     * (the sanitizer builds check it). */
    unsigned seed = 4;
    for (int k = 0; k < steps; ++k)
        row_create(&job, rand_r(&seed) % n, &seed);
    f_finalize();
    row_job_free(&job, n);
}
END_TEST

/* A packed row of a point function with a range version runs by it. */
START_TEST(test_rtc_rows_range_version)
{
    int n = t_start_loop(_i);
    struct row_job job;
    row_job_init(&job, n, 2000);
    ck_assert_int_eq(f_set_range_version(row_point1, row_range1), F_OK);
    for (int s = 0; s < n; ++s)
        for (long j = 0; j < 1000; ++j) {
            T_REQUIRE_EQ(f_rtc_thread(s, row_point1, s, j, &job.arg[0]), F_OK);
            row_want(&job, s, row_value(1, s, j, 0));
        }
    ck_assert_int_eq(f_parallel(), F_OK);
    T_ASSERT_NO_FAILURES();
    for (int s = 0; s < n; ++s) {
        ck_assert_uint_eq(job.logs->len[s], 1000);
        for (size_t k = 0; k < 1000; ++k)
            T_REQUIRE_EQ(job.logs->v[s][k], job.want[s][k]);
    }
    ck_assert_int_gt(t_ldl(&job.range_calls), 0);
    row_job_free(&job, n);
}
END_TEST

/* filaments_run counts each filament once, on the server that ran it. */
START_TEST(test_rtc_stats)
{
    int n = t_start_loop(_i);
    atomic_long count;
    atomic_init(&count, 0);
    for (int s = 0; s < n; ++s)
        for (int k = 0; k <= s; ++k)
            ck_assert_int_eq(f_rtc_thread(s, t_count_fn, 0, 0, &count), F_OK);
    ck_assert_int_eq(f_parallel(), F_OK);
    unsigned long total = 0;
    for (int s = 0; s < n; ++s) {
        struct f_stats st;
        ck_assert_int_eq(f_get_stats(s, &st), F_OK);
        ck_assert_uint_eq(st.filaments_run, (unsigned long)s + 1);
        ck_assert_uint_eq(st.steals, 0);
        ck_assert_uint_eq(st.barrier_episodes, 0);
        ck_assert_uint_eq(st.forks, 0);
        total += st.filaments_run;
    }
    struct f_stats sum;
    ck_assert_int_eq(f_get_stats(F_ANY, &sum), F_OK);
    ck_assert_uint_eq(sum.filaments_run, total);
    ck_assert_int_eq(t_ldl(&count), (long)total);
    /* Statistics accumulate across runs until reset. */
    ck_assert_int_eq(f_rtc_thread(0, t_count_fn, 0, 0, &count), F_OK);
    ck_assert_int_eq(f_parallel(), F_OK);
    ck_assert_int_eq(f_get_stats(F_ANY, &sum), F_OK);
    ck_assert_uint_eq(sum.filaments_run, total + 1);
    ck_assert_int_eq(f_reset_stats(), F_OK);
    for (int s = -1; s < n; ++s) {
        struct f_stats st;
        ck_assert_int_eq(f_get_stats(s, &st), F_OK);
        ck_assert_uint_eq(st.filaments_run, 0);
        ck_assert_uint_eq(st.steals, 0);
        ck_assert_uint_eq(st.steal_attempts, 0);
        ck_assert_uint_eq(st.barrier_episodes, 0);
        ck_assert_uint_eq(st.idle_ns, 0);
    }
}
END_TEST

/* Events from outside (f_set_poll(3)): no episode ends while the poll says
 * some are awaited, the filaments it creates for them run in it, and it is
 * never called while barrier code runs, nor after f_finalize. */
struct events {
    pthread_mutex_t lock;
    long left;        /* events still to come */
    atomic_long ran;  /* their filaments that ran */
    atomic_long polls;
    atomic_int in_seq;
    int passes;
};

static int poll_events(void *arg)
{
    struct events *e = arg;
    atomic_fetch_add(&e->polls, 1);
    T_EXPECT(atomic_load(&e->in_seq) == 0);
    pthread_mutex_lock(&e->lock);
    if (e->left > 0) {
        T_EXPECT(f_rtc_thread((int)(e->left % f_num_servers()), t_count_fn, 0, 0, &e->ran) == F_OK);
        e->left--;
    }
    long left = e->left;
    pthread_mutex_unlock(&e->lock);
    return (int)left;
}

static int events_pass(void *arg)
{
    struct events *e = arg;
    atomic_store(&e->in_seq, 1);
    T_EXPECT(e->left == 0);
    int done = ++e->passes == 3;
    if (!done)
        e->left = 10;  /* the next pass's */
    atomic_store(&e->in_seq, 0);
    return done ? F_DONE : F_NOTDONE;
}

static void set_poll_fn(long i, long j, void *arg)
{
    T_EXPECT(f_set_poll(poll_events, arg) == F_ESTATE);
}

START_TEST(test_rtc_poll)
{
    ck_assert_int_eq(f_set_poll(poll_events, NULL), F_ESTATE);
    int n = t_start_loop(_i);
    struct events e = { .lock = PTHREAD_MUTEX_INITIALIZER, .left = 100 };
    ck_assert_int_eq(f_set_poll(poll_events, &e), F_OK);
    ck_assert_int_eq(f_rtc_thread(n - 1, set_poll_fn, 0, 0, &e), F_OK);
    ck_assert_int_eq(f_parallel(), F_OK);
    ck_assert_int_eq(t_ldl(&e.ran), 100);
    ck_assert_int_ge(f_new_barrier(events_pass, &e), 0);
    for (int s = 0; s < n; ++s)
        ck_assert_int_eq(f_iterative_thread(s, t_count_fn, 0, 0, &e.ran), F_OK);
    ck_assert_int_eq(f_parallel(), F_OK);
    T_ASSERT_NO_FAILURES();
    ck_assert_int_eq(e.passes, 3);
    ck_assert_int_eq(t_ldl(&e.ran), 100 + 3L * n + 2 * 10);
    f_finalize();
    long polls = t_ldl(&e.polls);
    t_start(n);
    ck_assert_int_eq(f_rtc_thread(0, t_count_fn, 0, 0, &e.ran), F_OK);
    ck_assert_int_eq(f_parallel(), F_OK);
    ck_assert_int_eq(t_ldl(&e.polls), polls);
}
END_TEST

Suite *make_suite(void)
{
    Suite *s = suite_create("rtc");
    TCase *core = t_tcase(s, "core");
    tcase_add_loop_test(core, test_rtc_placement, 0, T_NCOUNTS);
    tcase_add_loop_test(core, test_rtc_arguments, 0, T_NCOUNTS);
    tcase_add_loop_test(core, test_rtc_any_once, 0, T_NCOUNTS);
    tcase_add_loop_test(core, test_rtc_any_idle_servers_steal, 0, T_NCOUNTS);
    tcase_add_loop_test(core, test_rtc_adapt_all_moves_named, 0, T_NCOUNTS);
    tcase_add_loop_test(core, test_rtc_create_during_run, 0, T_NCOUNTS);
    tcase_add_loop_test(core, test_rtc_stats, 0, T_NCOUNTS);
    tcase_add_loop_test(core, test_rtc_rows_order, 0, T_NCOUNTS);
    tcase_add_loop_test(core, test_rtc_rows_range_version, 0, T_NCOUNTS);
    tcase_add_loop_test(core, test_rtc_poll, 0, T_NCOUNTS);
    TCase *limits = t_tcase(s, "limits");
    tcase_add_loop_test(limits, test_rtc_many_on_one_server, 0, T_NCOUNTS);
    tcase_add_loop_test(limits, test_rtc_deep_chain, 0, T_NCOUNTS);
    tcase_add_loop_test(limits, test_rtc_tiny_chunks, 0, 4);  /* 1 to 4 servers */
    TCase *stress = t_tcase(s, "stress");
    tcase_add_loop_test(stress, test_rtc_concurrent_chains, 0, T_NCOUNTS);
    tcase_add_loop_test(stress, test_rtc_all_to_all, 0, T_NCOUNTS);
    tcase_add_loop_test(stress, test_rtc_any_burst_from_filament, 0, T_NCOUNTS);
    tcase_add_loop_test(stress, test_rtc_adapt_all_stress, 0, T_NCOUNTS);
    return s;
}
