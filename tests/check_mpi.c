/*
 * check_mpi.c - suite "mpi": libfilaments-mpi, filaments that wait for MPI
 * requests (f_mpi_rtc_thread(3)), run under mpirun at 1 to 4 ranks by
 * tests/mpi.sh, each test at 1 and 2 servers.
 *
 * Its own main: MPI_Init_thread (MPI_THREAD_SERIALIZED, the level the
 * library needs), then the suite without forking (a forked child of an MPI
 * process cannot call MPI), then MPI_Finalize.  `check_mpi funneled`
 * checks instead that a lower level is refused.  Every rank runs every
 * test; the messages go around a ring of the ranks.  main checks the life
 * cycle's corners that need MPI down: before MPI_Init_thread, f_initialize
 * across it, and after MPI_Finalize.
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

/* A creator (f_create_per_server) makes a request wait, as a filament may. */
static int create_fn(int server, int nservers, void *arg)
{
    struct handoff *h = arg;
    if (server == nservers - 1)
        atomic_store(&h->rc, f_mpi_rtc_thread(&h->req, F_ANY, got_fn, 0, 0, h->g));
    return F_OK;
}

START_TEST(from_creator)
{
    start(_i);
    struct got g = { .value = -1 };
    struct handoff h = { .g = &g, .rc = 1 };
    long out = 10L * rank + 5;
    MPI_Request s;
    MPI_Irecv(&g.value, 1, MPI_LONG, left(), TAG_RING, MPI_COMM_WORLD, &h.req);
    MPI_Isend(&out, 1, MPI_LONG, right(), TAG_RING, MPI_COMM_WORLD, &s);
    ck_assert_int_eq(f_create_per_server(create_fn, &h), F_OK);
    ck_assert_int_eq(t_ldi(&h.rc), F_OK);
    ck_assert_int_eq(f_parallel(), F_OK);
    ck_assert_int_eq(t_ldi(&g.runs), 1);
    ck_assert_int_eq(g.seen, 10L * left() + 5);
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
    ck_assert_int_eq(f_mpi_finalize(), F_ESTATE);   /* f_finalize ended it */
    MPI_Cancel(&r2);
    MPI_Request_free(&r2);
}
END_TEST

/* A persistent request: its filament runs once per start, and the handle
 * stays the program's, started again between runs, then freed. */
START_TEST(persistent)
{
    start(_i);
    struct got g = { .value = -1 };
    long out = 0;
    MPI_Status st;
    MPI_Request p, ps;
    MPI_Recv_init(&g.value, 1, MPI_LONG, rank, TAG_SELF, MPI_COMM_WORLD, &p);
    MPI_Send_init(&out, 1, MPI_LONG, rank, TAG_SELF, MPI_COMM_WORLD, &ps);
    for (int k = 1; k <= 3; ++k) {
        out = 40 + k;
        MPI_Start(&p);
        MPI_Start(&ps);
        ck_assert_int_eq(f_mpi_rtc_persistent(p, &st, F_ANY, got_fn, 0, 0, &g), F_OK);
        ck_assert_int_eq(f_mpi_rtc_persistent(ps, MPI_STATUS_IGNORE, F_ANY, NULL, 0, 0, NULL),
                         F_OK);
        ck_assert_int_eq(f_parallel(), F_OK);
        ck_assert_int_eq(t_ldi(&g.runs), k);
        ck_assert_int_eq(g.seen, 40 + k);
        ck_assert_int_eq(st.MPI_SOURCE, rank);
        ck_assert_int_eq(st.MPI_TAG, TAG_SELF);
        ck_assert(p != MPI_REQUEST_NULL && ps != MPI_REQUEST_NULL);
    }
    ck_assert_int_eq(MPI_Request_free(&p), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Request_free(&ps), MPI_SUCCESS);
    ck_assert_int_eq(f_mpi_finalize(), F_OK);
}
END_TEST

/* A persistent request given to f_mpi_rtc_thread is taken like any
 * other: its filament runs once, and the library frees it. */
START_TEST(persistent_taken)
{
    start(_i);
    struct got g = { .value = -1 };
    long out = 9;
    MPI_Request p, s;
    MPI_Recv_init(&g.value, 1, MPI_LONG, rank, TAG_SELF, MPI_COMM_WORLD, &p);
    MPI_Start(&p);
    MPI_Isend(&out, 1, MPI_LONG, rank, TAG_SELF, MPI_COMM_WORLD, &s);
    ck_assert_int_eq(f_mpi_rtc_thread(&p, F_ANY, got_fn, 0, 0, &g), F_OK);
    ck_assert(p == MPI_REQUEST_NULL);
    ck_assert_int_eq(f_mpi_rtc_thread(&s, F_ANY, NULL, 0, 0, NULL), F_OK);
    ck_assert_int_eq(f_parallel(), F_OK);
    ck_assert_int_eq(t_ldi(&g.runs), 1);
    ck_assert_int_eq(g.seen, 9);
    ck_assert_int_eq(f_mpi_finalize(), F_OK);
}
END_TEST

/* The status, seen by the filament: a receive from any source with any
 * tag learns both and the count; MPI_PROC_NULL's is empty. */
struct seen {
    MPI_Status st;
    long buf[4];
    int source, tag;  /* st's, when the filament ran */
    int error;
    atomic_int runs;
};

static void seen_fn(long i, long j, void *arg)
{
    struct seen *x = arg;
    x->source = x->st.MPI_SOURCE;
    x->tag = x->st.MPI_TAG;
    x->error = x->st.MPI_ERROR;
    atomic_fetch_add(&x->runs, 1);
}

START_TEST(status)
{
    start(_i);
    struct seen any = { .source = -9 }, none = { .source = -9 };
    long out[3] = { 1, 2, rank };
    MPI_Request r, s, rn, sn;
    MPI_Irecv(any.buf, 4, MPI_LONG, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &r);
    MPI_Issend(out, 3, MPI_LONG, right(), TAG_RING + 100 + rank, MPI_COMM_WORLD, &s);
    MPI_Irecv(none.buf, 4, MPI_LONG, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &rn);
    MPI_Isend(out, 3, MPI_LONG, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &sn);
    ck_assert_int_eq(f_mpi_rtc_status(&r, &any.st, F_ANY, seen_fn, 0, 0, &any), F_OK);
    ck_assert_int_eq(f_mpi_rtc_thread(&s, F_ANY, NULL, 0, 0, NULL), F_OK);
    ck_assert_int_eq(f_mpi_rtc_status(&rn, &none.st, 0, seen_fn, 0, 0, &none), F_OK);
    ck_assert_int_eq(f_mpi_rtc_thread(&sn, F_ANY, NULL, 0, 0, NULL), F_OK);
    ck_assert_int_eq(f_parallel(), F_OK);
    ck_assert_int_eq(t_ldi(&any.runs), 1);
    ck_assert_int_eq(any.source, left());
    ck_assert_int_eq(any.tag, TAG_RING + 100 + left());
    ck_assert_int_eq(any.error, MPI_SUCCESS);
    int count = -1;
    MPI_Get_count(&any.st, MPI_LONG, &count);
    ck_assert_int_eq(count, 3);
    ck_assert_int_eq(any.buf[2], left());
    ck_assert_int_eq(t_ldi(&none.runs), 1);
    ck_assert_int_eq(none.source, MPI_PROC_NULL);
    ck_assert_int_eq(none.tag, MPI_ANY_TAG);
    MPI_Get_count(&none.st, MPI_LONG, &count);
    ck_assert_int_eq(count, 0);
    ck_assert_int_eq(f_mpi_finalize(), F_OK);
}
END_TEST

/* Under MPI_ERRORS_RETURN a truncated receive still runs its filament,
 * which sees the error in the status.  Around the ring: Open MPI 4.1 does
 * not report a truncation between a rank and itself (its self transport),
 * so at one rank the error is MPI_SUCCESS. */
START_TEST(status_error)
{
    start(_i);
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    struct seen x = { .error = MPI_SUCCESS };
    long out[3] = { 1, 2, 3 };
    MPI_Request r, s;
    MPI_Irecv(x.buf, 1, MPI_LONG, left(), TAG_RING, comm, &r);
    MPI_Isend(out, 3, MPI_LONG, right(), TAG_RING, comm, &s);
    ck_assert_int_eq(f_mpi_rtc_status(&r, &x.st, F_ANY, seen_fn, 0, 0, &x), F_OK);
    ck_assert_int_eq(f_mpi_rtc_thread(&s, F_ANY, NULL, 0, 0, NULL), F_OK);
    ck_assert_int_eq(f_parallel(), F_OK);
    ck_assert_int_eq(t_ldi(&x.runs), 1);
    int class = MPI_SUCCESS;
    MPI_Error_class(x.error, &class);
    ck_assert_int_eq(class, nranks > 1 ? MPI_ERR_TRUNCATE : MPI_SUCCESS);
    ck_assert_int_eq(f_mpi_finalize(), F_OK);
    MPI_Comm_free(&comm);
}
END_TEST

/* Nonblocking collectives are requests like any other. */
START_TEST(collective)
{
    start(_i);
    struct got g = { .value = -1 };
    long mine = rank + 1;
    MPI_Request r, b;
    MPI_Iallreduce(&mine, &g.value, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD, &r);
    MPI_Ibarrier(MPI_COMM_WORLD, &b);
    ck_assert_int_eq(f_mpi_rtc_thread(&r, F_ANY, got_fn, 0, 0, &g), F_OK);
    ck_assert_int_eq(f_mpi_rtc_thread(&b, F_ANY, NULL, 0, 0, NULL), F_OK);
    ck_assert_int_eq(f_parallel(), F_OK);
    ck_assert_int_eq(t_ldi(&g.runs), 1);
    ck_assert_int_eq(g.seen, (long)nranks * (nranks + 1) / 2);
    ck_assert_int_eq(f_mpi_finalize(), F_OK);
}
END_TEST

/* A generalized request: its query function's status reaches the filament. */
static int greq_query(void *extra, MPI_Status *st)
{
    st->MPI_SOURCE = rank;
    st->MPI_TAG = TAG_PASS;
    MPI_Status_set_elements(st, MPI_BYTE, 42);
    MPI_Status_set_cancelled(st, 0);
    return MPI_SUCCESS;
}

static int greq_free(void *extra) { return MPI_SUCCESS; }
static int greq_cancel(void *extra, int complete) { return MPI_SUCCESS; }

START_TEST(generalized)
{
    start(_i);
    struct seen x = { .source = -9 };
    MPI_Request r;
    MPI_Grequest_start(greq_query, greq_free, greq_cancel, NULL, &r);
    MPI_Request mine = r;
    ck_assert_int_eq(f_mpi_rtc_status(&r, &x.st, F_ANY, seen_fn, 0, 0, &x), F_OK);
    MPI_Grequest_complete(mine);
    ck_assert_int_eq(f_parallel(), F_OK);
    ck_assert_int_eq(t_ldi(&x.runs), 1);
    ck_assert_int_eq(x.source, rank);
    ck_assert_int_eq(x.tag, TAG_PASS);
    int count = -1;
    MPI_Get_count(&x.st, MPI_BYTE, &count);
    ck_assert_int_eq(count, 42);
    ck_assert_int_eq(f_mpi_finalize(), F_OK);
}
END_TEST

/* The program's poll and the library's compose: setting, replacing or
 * removing the program's, before or after f_mpi_initialize, leaves MPI's,
 * and both are polled. */
static int program_poll(void *arg)
{
    atomic_fetch_add((atomic_long *)arg, 1);
    return 0;
}

START_TEST(hooks)
{
    int n = t_start(1 + _i % 2);
    atomic_long polls = 0;
    if (_i >= 2)
        ck_assert_int_eq(f_set_poll(program_poll, &polls), F_OK);
    ck_assert_int_eq(f_mpi_initialize(), F_OK);
    for (int k = 0; k < 3; ++k) {
        /* the program's own poll, none, then its own again */
        ck_assert_int_eq(f_set_poll(k == 1 ? NULL : program_poll, &polls), F_OK);
        struct got g = { .value = -1 };
        long out = 10L * rank + k;
        MPI_Request r, s;
        MPI_Irecv(&g.value, 1, MPI_LONG, left(), TAG_RING, MPI_COMM_WORLD, &r);
        MPI_Isend(&out, 1, MPI_LONG, right(), TAG_RING, MPI_COMM_WORLD, &s);
        ck_assert_int_eq(f_mpi_rtc_thread(&r, n - 1, got_fn, 0, 0, &g), F_OK);
        ck_assert_int_eq(f_mpi_rtc_thread(&s, F_ANY, NULL, 0, 0, NULL), F_OK);
        long before = t_ldl(&polls);
        ck_assert_int_eq(f_parallel(), F_OK);
        ck_assert_int_eq(t_ldi(&g.runs), 1);
        ck_assert_int_eq(g.seen, 10L * left() + k);
        if (k == 1)
            ck_assert_int_eq(t_ldl(&polls), before);
        else
            ck_assert_int_gt(t_ldl(&polls), before);
    }
    ck_assert_int_eq(f_mpi_finalize(), F_OK);
    ck_assert_int_eq(f_set_poll(NULL, NULL), F_OK);
}
END_TEST

/* The life cycle's corners, and F_ESTATE before F_EINVAL in every state. */
static void calls_refused(void)
{
    long in;
    MPI_Request r = MPI_REQUEST_NULL;
    ck_assert_int_eq(f_mpi_rtc_thread(NULL, F_ANY, NULL, 0, 0, NULL), F_ESTATE);
    ck_assert_int_eq(f_mpi_rtc_thread(&r, F_ANY, NULL, 0, 0, NULL), F_ESTATE);
    ck_assert_int_eq(f_mpi_rtc_status(&r, NULL, -5, NULL, 0, 0, NULL), F_ESTATE);
    ck_assert_int_eq(f_mpi_rtc_persistent(r, NULL, 1 << 20, NULL, 0, 0, NULL), F_ESTATE);
    MPI_Irecv(&in, 1, MPI_LONG, rank, TAG_NEVER, MPI_COMM_WORLD, &r);
    ck_assert_int_eq(f_mpi_rtc_thread(&r, 1 << 20, NULL, 0, 0, NULL), F_ESTATE);
    ck_assert_int_eq(f_mpi_rtc_thread(&r, F_ANY, NULL, 0, 0, NULL), F_ESTATE);
    ck_assert(r != MPI_REQUEST_NULL);
    MPI_Cancel(&r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
}

struct inside {
    atomic_int init, fini;
};

static void inside_fn(long i, long j, void *arg)
{
    struct inside *x = arg;
    atomic_store(&x->init, f_mpi_initialize());
    atomic_store(&x->fini, f_mpi_finalize());
}

START_TEST(life_cycle)
{
    int n = t_start(1 + _i % 2);
    ck_assert_int_eq(f_mpi_finalize(), F_ESTATE); /* before f_mpi_initialize */
    calls_refused();
    ck_assert_int_eq(f_mpi_initialize(), F_OK);
    ck_assert_int_eq(f_mpi_initialize(), F_ESTATE); /* twice */
    struct inside x = { 1, 1 };
    ck_assert_int_eq(f_rtc_thread(n - 1, inside_fn, 0, 0, &x), F_OK);
    ck_assert_int_eq(f_parallel(), F_OK);
    ck_assert_int_eq(t_ldi(&x.init), F_ESTATE);
    ck_assert_int_eq(t_ldi(&x.fini), F_ESTATE);
    ck_assert_int_eq(f_mpi_finalize(), F_OK);
    ck_assert_int_eq(f_mpi_finalize(), F_ESTATE); /* twice */
    calls_refused();
    ck_assert_int_eq(f_mpi_initialize(), F_OK); /* again, in the same lifetime */
    f_finalize();                               /* ends the MPI part too */
    ck_assert_int_eq(f_mpi_finalize(), F_ESTATE);
    calls_refused();
    t_start(n);
    calls_refused(); /* a new lifetime: not initialized until it is */
    ck_assert_int_eq(f_mpi_initialize(), F_OK);
    ck_assert_int_eq(f_mpi_finalize(), F_OK);
}
END_TEST

Suite *make_suite(void)
{
    Suite *s = suite_create("mpi");
    TCase *tc = t_tcase(s, "mpi");
    tcase_add_loop_test(tc, ring, 0, 4);
    tcase_add_loop_test(tc, from_filament, 0, 2);
    tcase_add_loop_test(tc, from_creator, 0, 2);
    tcase_add_loop_test(tc, passes, 0, 2);
    tcase_add_loop_test(tc, twice, 0, 2);
    tcase_add_loop_test(tc, past_end, 0, 2);
    tcase_add_loop_test(tc, persistent, 0, 2);
    tcase_add_loop_test(tc, persistent_taken, 0, 2);
    tcase_add_loop_test(tc, status, 0, 2);
    tcase_add_loop_test(tc, status_error, 0, 2);
    tcase_add_loop_test(tc, collective, 0, 2);
    tcase_add_loop_test(tc, generalized, 0, 2);
    tcase_add_loop_test(tc, hooks, 0, 4);
    tcase_add_loop_test(tc, life_cycle, 0, 2);
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

/* A broken expectation of main's, outside the suite. */
static int expect(int ok, const char *what)
{
    if (!ok)
        fprintf(stderr, "check_mpi: %s\n", what);
    return !ok;
}

int main(int argc, char **argv)
{
    int funneled = argc > 1 && strcmp(argv[1], "funneled") == 0;
    if (expect(f_mpi_finalize() == F_ESTATE, "f_mpi_finalize before all was not F_ESTATE") ||
        expect(refused(), "f_mpi_initialize before MPI_Init was not F_ESTATE"))
        return EXIT_FAILURE;
    /* f_initialize may come before MPI_Init_thread: the library is up
     * across it, and libfilaments-mpi starts after it. */
    int early = f_initialize(1);
    int level;
    MPI_Init_thread(&argc, &argv, funneled ? MPI_THREAD_FUNNELED : MPI_THREAD_SERIALIZED, &level);
    if (!funneled) {
        int failed = expect(early == F_OK && f_mpi_initialize() == F_OK,
                            "f_initialize before MPI_Init_thread: f_mpi_initialize failed") ||
                     expect(f_mpi_finalize() == F_OK, "f_mpi_finalize failed");
        if (failed)
            return EXIT_FAILURE;
    }
    f_finalize();
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
    /* MPI_Finalize before f_mpi_finalize: F_ESTATE, and the library ends. */
    int up = !funneled && f_initialize(1) == F_OK && f_mpi_initialize() == F_OK;
    MPI_Finalize();
    if (!funneled) {
        failed |= expect(up, "f_mpi_initialize before MPI_Finalize failed") ||
                  expect(f_mpi_finalize() == F_ESTATE,
                         "f_mpi_finalize after MPI_Finalize was not F_ESTATE") ||
                  expect(f_mpi_initialize() == F_ESTATE,
                         "f_mpi_initialize after MPI_Finalize was not F_ESTATE");
        f_finalize();
    }
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
