/*
 * check_mpi.c - suite "mpi": libfilaments-mpi, filaments that wait for MPI
 * requests (f_mpi_rtc_thread(3)), run under mpirun at 1 to 4 ranks by
 * tests/mpi.sh, each test at 1 and 2 servers.
 *
 * Its own main: MPI_Init_thread (MPI_THREAD_SERIALIZED, the level the
 * library needs), then the suite without forking (a forked child of an MPI
 * process cannot call MPI), then MPI_Finalize.  `check_mpi funneled`
 * checks instead that a lower level is refused.  Every rank runs every
 * test; the messages go around a ring of the ranks.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <filaments-mpi.h>

#include "tests.h"

enum { TAG_RING = 1, TAG_SELF, TAG_NEVER, TAG_PASS };

static int rank, nranks;

static int left(void) { return (rank + nranks - 1) % nranks; }
static int right(void) { return (rank + 1) % nranks; }

/* 1 or 2 servers: the loop index. */
static int start(int i)
{
    int n = t_start(1 + i % 2);
    ck_assert_int_eq(f_mpi_initialize(), F_OK);
    return n;
}

/* A receive's filament: records what came, where, and how often. */
struct got {
    long value;       /* the message's buffer */
    long seen;        /* the value when the filament ran */
    atomic_int runs;
    atomic_int server;
};

static void got_fn(long i, long j, void *arg)
{
    struct got *g = arg;
    g->seen = g->value;
    atomic_store(&g->server, f_my_server());
    atomic_fetch_add(&g->runs, 1);
}

static void work_fn(long i, long j, void *arg)
{
    t_work(2000);
    t_count_fn(i, j, arg);
}

/* Around the ring: the receive's filament runs once, after the message
 * came, on the server named (or any), while the servers run other work. */
START_TEST(ring)
{
    int n = start(_i);
    int server = _i < 2 ? F_ANY : n - 1;
    struct got g = { .value = -1 };
    long out = 10L * rank + 7;
    MPI_Request r, s;
    MPI_Irecv(&g.value, 1, MPI_LONG, left(), TAG_RING, MPI_COMM_WORLD, &r);
    MPI_Isend(&out, 1, MPI_LONG, right(), TAG_RING, MPI_COMM_WORLD, &s);
    ck_assert_int_eq(f_mpi_rtc_thread(&r, server, got_fn, 0, 0, &g), F_OK);
    ck_assert(r == MPI_REQUEST_NULL);
    ck_assert_int_eq(f_mpi_rtc_thread(&s, F_ANY, NULL, 0, 0, NULL), F_OK);
    atomic_long count = 0;
    for (int k = 0; k < 8 * n; ++k)
        ck_assert_int_eq(f_rtc_thread(k % n, work_fn, k, 0, &count), F_OK);
    ck_assert_int_eq(f_parallel(), F_OK);
    ck_assert_int_eq(t_ldi(&g.runs), 1);
    ck_assert_int_eq(g.seen, 10L * left() + 7);
    if (server != F_ANY)
        ck_assert_int_eq(t_ldi(&g.server), server);
    ck_assert_int_eq(t_ldl(&count), 8 * n);
    ck_assert_int_eq(f_mpi_finalize(), F_OK);
}
END_TEST

/* A filament makes a request posted by the main thread wait: the run does
 * not end before the request's filament has run. */
struct handoff {
    MPI_Request req;
    struct got *g;
    atomic_int rc;
};

static void handoff_fn(long i, long j, void *arg)
{
    struct handoff *h = arg;
    atomic_store(&h->rc, f_mpi_rtc_thread(&h->req, F_ANY, got_fn, 0, 0, h->g));
}

START_TEST(from_filament)
{
    int n = start(_i);
    struct got g = { .value = -1 };
    struct handoff h = { .g = &g, .rc = 1 };
    long out = 10L * rank + 3;
    MPI_Request s;
    MPI_Irecv(&g.value, 1, MPI_LONG, left(), TAG_RING, MPI_COMM_WORLD, &h.req);
    MPI_Isend(&out, 1, MPI_LONG, right(), TAG_RING, MPI_COMM_WORLD, &s);
    ck_assert_int_eq(f_rtc_thread(n - 1, handoff_fn, 0, 0, &h), F_OK);
    ck_assert_int_eq(f_parallel(), F_OK);
    ck_assert_int_eq(t_ldi(&h.rc), F_OK);
    ck_assert_int_eq(t_ldi(&g.runs), 1);
    ck_assert_int_eq(g.seen, 10L * left() + 3);
    MPI_Wait(&s, MPI_STATUS_IGNORE);
    ck_assert_int_eq(f_mpi_finalize(), F_OK);
}
END_TEST

/* Barrier code exchanges a message every pass (MPI_THREAD_SERIALIZED
 * allows it: no server polls then); its filament runs in the next pass. */
enum { PASSES = 5 };
struct passes {
    struct got g;
    long out;
    long pass;
    MPI_Request s;
};

static void post_pass(struct passes *p)
{
    MPI_Request r;
    p->out = 100L * rank + p->pass;
    MPI_Irecv(&p->g.value, 1, MPI_LONG, left(), TAG_PASS, MPI_COMM_WORLD, &r);
    MPI_Isend(&p->out, 1, MPI_LONG, right(), TAG_PASS, MPI_COMM_WORLD, &p->s);
    T_EXPECT(f_mpi_rtc_thread(&r, F_ANY, got_fn, 0, 0, &p->g) == F_OK);
    T_EXPECT(f_mpi_rtc_thread(&p->s, F_ANY, NULL, 0, 0, NULL) == F_OK);
}

static int pass_end(void *arg)
{
    struct passes *p = arg;
    T_EXPECT(atomic_load(&p->g.runs) == p->pass + 1);
    T_EXPECT(p->g.seen == 100L * left() + p->pass);
    if (++p->pass == PASSES)
        return F_DONE;
    post_pass(p);
    return F_NOTDONE;
}

START_TEST(passes)
{
    int n = start(_i);
    struct passes p = { .g = { .value = -1 } };
    atomic_long count = 0;
    ck_assert_int_ge(f_new_barrier(pass_end, &p), 0);
    for (int k = 0; k < 4 * n; ++k)
        ck_assert_int_eq(f_iterative_thread(k % n, work_fn, k, 0, &count), F_OK);
    post_pass(&p);
    ck_assert_int_eq(f_parallel(), F_OK);
    T_ASSERT_NO_FAILURES();
    ck_assert_int_eq(p.pass, PASSES);
    ck_assert_int_eq(t_ldl(&count), 4L * n * PASSES);
    ck_assert_int_eq(f_mpi_finalize(), F_OK);
}
END_TEST

/* A request used twice, and bad arguments: F_EINVAL, nothing taken. */
START_TEST(twice)
{
    int n = start(_i);
    struct got g = { .value = -1 };
    long out = 5;
    MPI_Request r, s;
    MPI_Irecv(&g.value, 1, MPI_LONG, rank, TAG_SELF, MPI_COMM_WORLD, &r);
    ck_assert_int_eq(f_mpi_rtc_thread(&r, F_ANY, got_fn, 0, 0, &g), F_OK);
    ck_assert_int_eq(f_mpi_rtc_thread(&r, F_ANY, got_fn, 0, 0, &g), F_EINVAL);
    ck_assert_int_eq(f_mpi_rtc_thread(NULL, F_ANY, got_fn, 0, 0, &g), F_EINVAL);
    MPI_Isend(&out, 1, MPI_LONG, rank, TAG_SELF, MPI_COMM_WORLD, &s);
    ck_assert_int_eq(f_mpi_rtc_thread(&s, n, NULL, 0, 0, NULL), F_EINVAL);
    ck_assert_int_eq(f_mpi_rtc_thread(&s, -2, NULL, 0, 0, NULL), F_EINVAL);
    ck_assert(s != MPI_REQUEST_NULL);
    ck_assert_int_eq(f_mpi_rtc_thread(&s, 0, NULL, 0, 0, NULL), F_OK);
    ck_assert_int_eq(f_parallel(), F_OK);
    ck_assert_int_eq(t_ldi(&g.runs), 1);
    ck_assert_int_eq(g.seen, 5);
    ck_assert_int_eq(f_mpi_finalize(), F_OK);
}
END_TEST

/* A filament that waits past the end: f_mpi_finalize says so and cancels
 * its request; after it, and after f_finalize, nothing may wait. */
START_TEST(past_end)
{
    start(_i);
    long in;
    MPI_Request r, r2;
    MPI_Irecv(&in, 1, MPI_LONG, rank, TAG_NEVER, MPI_COMM_WORLD, &r);
    ck_assert_int_eq(f_mpi_rtc_thread(&r, F_ANY, t_count_fn, 0, 0, NULL), F_OK);
    ck_assert_int_eq(f_mpi_finalize(), F_ESTATE);
    MPI_Irecv(&in, 1, MPI_LONG, rank, TAG_NEVER, MPI_COMM_WORLD, &r2);
    ck_assert_int_eq(f_mpi_rtc_thread(&r2, F_ANY, t_count_fn, 0, 0, NULL), F_ESTATE);
    ck_assert_int_eq(f_parallel(), F_OK); /* the hook is gone: nothing awaited */
    ck_assert_int_eq(f_mpi_initialize(), F_OK);
    f_finalize();
    ck_assert_int_eq(f_mpi_rtc_thread(&r2, F_ANY, t_count_fn, 0, 0, NULL), F_ESTATE);
    ck_assert_int_eq(f_mpi_initialize(), F_ESTATE); /* no library */
    ck_assert_int_eq(f_mpi_finalize(), F_OK);
    MPI_Cancel(&r2);
    MPI_Request_free(&r2);
}
END_TEST

Suite *make_suite(void)
{
    Suite *s = suite_create("mpi");
    TCase *tc = t_tcase(s, "mpi");
    tcase_add_loop_test(tc, ring, 0, 4);
    tcase_add_loop_test(tc, from_filament, 0, 2);
    tcase_add_loop_test(tc, passes, 0, 2);
    tcase_add_loop_test(tc, twice, 0, 2);
    tcase_add_loop_test(tc, past_end, 0, 2);
    return s;
}

/* Before MPI_Init, and at a level below MPI_THREAD_SERIALIZED: refused. */
static int refused(void)
{
    if (f_initialize(1) != F_OK)
        return 0;
    int rc = f_mpi_initialize();
    f_finalize();
    return rc == F_ESTATE;
}

int main(int argc, char **argv)
{
    int funneled = argc > 1 && strcmp(argv[1], "funneled") == 0;
    if (!refused()) {
        fprintf(stderr, "check_mpi: f_mpi_initialize before MPI_Init was not F_ESTATE\n");
        return EXIT_FAILURE;
    }
    int level;
    MPI_Init_thread(&argc, &argv, funneled ? MPI_THREAD_FUNNELED : MPI_THREAD_SERIALIZED, &level);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    int failed;
    if (funneled) {
        failed = !refused();
        if (failed)
            fprintf(stderr, "check_mpi: MPI_THREAD_FUNNELED was not refused\n");
    } else if (level < MPI_THREAD_SERIALIZED) {
        fprintf(stderr, "check_mpi: MPI gives thread level %d only\n", level);
        failed = 1;
    } else {
        SRunner *sr = srunner_create(make_suite());
        srunner_set_fork_status(sr, CK_NOFORK);
        srunner_run_all(sr, rank == 0 ? CK_NORMAL : CK_SILENT);
        failed = srunner_ntests_failed(sr);
        srunner_free(sr);
    }
    MPI_Finalize();
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
