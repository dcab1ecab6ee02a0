/*
 * quad-mpi.c - adaptive quadrature on several MPI ranks [paper §2.3, §3.3]:
 * intervals handed out to the ranks as they ask for them, their areas
 * added at rank 0 by the recursion's own tree.  Built where configure
 * found MPI.
 *
 *   mpi-fil  Filaments inside each rank: each interval by a fork/join
 *            filament per subinterval, in one f_parallel run
 *            (quad_fil_area, as --impl=fil does the whole interval);
 *   mpi      one rank per core: each interval by the sequential recursion.
 *
 * The intervals.  Every rank applies the rule to the top of the recursion's
 * tree, level by level, until a level has UNITS_PER_RANK intervals per rank
 * or none (struct top): the same levels on every rank, so the intervals are
 * known everywhere by their index and only indices travel.  The intervals
 * of the deepest level are the units of work; the leaves above it are
 * done already.
 *
 * Handing them out.  Rank 0 holds the count of units handed out, which
 * its own main thread takes from directly and a coordinator thread hands
 * out to the other ranks, one unit per ask (the dynamic scheduling of the
 * bag of tasks, quad-cg.c, between ranks).  The units go from the right
 * end of [a, b] to the left, the heaviest first (f oscillates fastest at
 * the right end), so that the last ones handed out are short.  A rank asks
 * for its next unit as it starts one: the answer travels while it computes
 * (Freeh, Lowenthal and Andrews, "Distributed Filaments", OSDI 1994).
 * The coordinator tests for an ask and naps between tests, instead of
 * MPI_Recv, which Open MPI spins in: it shares rank 0's cores with its
 * servers, and the ranks ask one unit ahead, so a nap shorter than a unit
 * costs no rank time.
 * Only the coordinator calls MPI on rank 0 while it runs, and the main
 * thread elsewhere, as MPI_THREAD_SERIALIZED allows.
 *
 * The sums.  Each unit's area is bitwise quad_rec()'s on it (quad_fil_area
 * is, quad.h), and each rank keeps those of its own units; MPI_Reduce with
 * a bitwise or brings them to rank 0 exactly (every unit has one rank, the
 * other ranks' slots are zero).  Rank 0 then adds the tree's halves as
 * left + right from the deepest level up: the recursion's tree of sums, so
 * the area and the count of leaves are bitwise the sequential program's
 * at every rank count.
 */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <string.h>
#include <time.h>

#include <atomic_ops.h>
#include <filaments.h>

#include "app-mpi.h"
#include "quad.h"

/* Enough units per rank that the last ones, the lightest, even out the
 * ranks' loads; few enough that asking for them costs nothing. */
enum { UNITS_PER_RANK = 16 };

/* The coordinator's naps between tests for an ask (ns): the shortest,
 * after an ask, when the next may be near (light units come fast); each
 * empty test doubles it up to the longest, which an ask one unit ahead
 * hides, and which wakes the coordinator 1,000 times a second at most. */
enum { NAP_MIN_NS = 1000, NAP_MAX_NS = 1000000 };

enum { TAG_ASK = 1, TAG_UNIT };

/* A node of the top of the recursion's tree. */
struct node {
    struct quad_interval iv;
    long left; /* its halves are nodes left and left + 1; 0: none yet (a leaf or a unit) */
    double area;
    long intervals;
};

/* The top of the tree, nodes in level order; the units are nodes
 * [first_unit, first_unit + nunits), the deepest level. */
struct top {
    struct node *nodes;
    long n, cap;
    long first_unit, nunits;
};

static void append(struct top *t, double a, double b, double fa, double fb, double area)
{
    if (t->n == t->cap) {
        t->cap *= 2;
        struct node *nodes = app_alloc((size_t)t->cap, sizeof *nodes);
        memcpy(nodes, t->nodes, (size_t)t->n * sizeof *nodes);
        app_free(t->nodes);
        t->nodes = nodes;
    }
    t->nodes[t->n++] = (struct node){ { a, b, fa, fb, area }, 0, 0.0, 0 };
}

/* Apply the rule level by level until the deepest level has `want` nodes
 * or none; a leaf's area is left + right, as in quad_rec(). */
static void top_build(struct top *t, const struct quad *q, long want)
{
    *t = (struct top){ .cap = 2 * want };
    t->nodes = app_alloc((size_t)t->cap, sizeof *t->nodes);
    struct quad_interval whole;
    quad_interval(q, 0, 1, &whole);
    append(t, whole.a, whole.b, whole.fa, whole.fb, whole.area);
    long lo = 0, hi = 1; /* the deepest level */
    while (hi > lo && hi - lo < want) {
        for (long k = lo; k < hi; ++k) {
            struct quad_interval iv = t->nodes[k].iv; /* append() may move it */
            double m, fm, left, right;
            if (quad_split(iv.a, iv.b, iv.fa, iv.fb, iv.area, q->epsilon, &m, &fm, &left, &right)) {
                t->nodes[k].area = left + right;
                t->nodes[k].intervals = 1;
                continue;
            }
            t->nodes[k].left = t->n;
            append(t, iv.a, m, iv.fa, fm, left);
            append(t, m, iv.b, fm, iv.fb, right);
        }
        lo = hi;
        hi = t->n;
    }
    t->first_unit = lo;
    t->nunits = hi - lo;
}

/* Every node's area from its halves', the deepest first: the recursion's sums. */
static void top_add(struct top *t, struct quad_result *r)
{
    for (long k = t->n - 1; k >= 0; --k) {
        struct node *x = &t->nodes[k];
        if (x->left != 0) {
            x->area = t->nodes[x->left].area + t->nodes[x->left + 1].area;
            x->intervals = t->nodes[x->left].intervals + t->nodes[x->left + 1].intervals;
        }
    }
    r->area = t->nodes[0].area;
    r->intervals = t->nodes[0].intervals;
}

/* A rank's run. */
struct share {
    struct top top;
    double eps;
    int ranks;
    double (*area)(const struct quad_interval *iv, double eps, long *intervals);
    uint64_t *result;    /* per unit: its area's bits, its leaves; 0 where another rank's */
    volatile AO_t taken; /* rank 0: units handed out so far (and asks past the end) */
};

/* Rank 0: the next unit, from the right end; -1 when none is left. */
static long take(struct share *s)
{
    long c = (long)AO_fetch_and_add1(&s->taken);
    return c < s->top.nunits ? s->top.nunits - 1 - c : -1;
}

static void compute(struct share *s, long unit)
{
    long intervals = 0;
    double area = s->area(&s->top.nodes[s->top.first_unit + unit].iv, s->eps, &intervals);
    memcpy(&s->result[2 * unit], &area, sizeof area);
    s->result[2 * unit + 1] = (uint64_t)intervals;
}

/* Rank 0's coordinator: a unit, or -1, for each ask, until every other
 * rank has been told that none is left. */
static void *coordinate(void *arg)
{
    struct share *s = arg;
    for (int told = 0; told < s->ranks - 1;) {
        MPI_Request ask;
        MPI_Status status;
        int flag = 0;
        struct timespec nap = { 0, NAP_MIN_NS };
        MPI_Irecv(NULL, 0, MPI_BYTE, MPI_ANY_SOURCE, TAG_ASK, MPI_COMM_WORLD, &ask);
        while (MPI_Test(&ask, &flag, &status), !flag) {
            nanosleep(&nap, NULL);
            if (nap.tv_nsec < NAP_MAX_NS)
                nap.tv_nsec *= 2;
        }
        long unit = take(s);
        MPI_Send(&unit, 1, MPI_LONG, status.MPI_SOURCE, TAG_UNIT, MPI_COMM_WORLD);
        told += unit < 0;
    }
    return NULL;
}

/* Another rank: ask rank 0 for a unit, into *unit once req completes. */
static void ask(MPI_Request req[2], long *unit)
{
    MPI_Irecv(unit, 1, MPI_LONG, 0, TAG_UNIT, MPI_COMM_WORLD, &req[0]);
    MPI_Isend(NULL, 0, MPI_BYTE, 0, TAG_ASK, MPI_COMM_WORLD, &req[1]);
}

static void work(struct share *s, int rank)
{
    if (rank == 0) {
        pthread_t coordinator;
        if (s->ranks > 1 && pthread_create(&coordinator, NULL, coordinate, s) != 0)
            app_fail("cannot start the coordinator thread");
        for (long unit; (unit = take(s)) >= 0;)
            compute(s, unit);
        if (s->ranks > 1)
            pthread_join(coordinator, NULL);
        return;
    }
    MPI_Request req[2];
    long next;
    ask(req, &next);
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    while (next >= 0) {
        long unit = next;
        ask(req, &next); /* the next one travels while this one is computed */
        compute(s, unit);
        MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    }
}

static void run(struct quad *q, double (*area)(const struct quad_interval *, double, long *))
{
    int rank = app_mpi_rank();
    struct share s = { .eps = q->epsilon, .ranks = app_mpi_ranks(), .area = area };
    top_build(&s.top, q, (long)UNITS_PER_RANK * s.ranks);
    s.result = app_alloc(2 * (size_t)s.top.nunits, sizeof *s.result);
    AO_store(&s.taken, 0);
    work(&s, rank);
    MPI_Reduce(rank == 0 ? MPI_IN_PLACE : s.result, s.result, (int)(2 * s.top.nunits), MPI_UINT64_T,
               MPI_BOR, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        for (long u = 0; u < s.top.nunits; ++u) {
            struct node *x = &s.top.nodes[s.top.first_unit + u];
            memcpy(&x->area, &s.result[2 * u], sizeof x->area);
            x->intervals = (long)s.result[2 * u + 1];
        }
        top_add(&s.top, &q->r);
    }
    app_free(s.result);
    app_free(s.top.nodes);
}

static double fil_area(const struct quad_interval *iv, double eps, long *intervals)
{
    return quad_fil_area(iv, eps, 0, intervals);
}

static double rec_area(const struct quad_interval *iv, double eps, long *intervals)
{
    return quad_rec(iv->a, iv->b, iv->fa, iv->fb, iv->area, eps, intervals);
}

void quad_mpi_fil(void *problem, int servers)
{
    app_check_f(f_initialize(servers), "f_initialize");
    run(problem, fil_area);
    f_finalize();
}

void quad_mpi(void *problem, int servers)
{
    run(problem, rec_area);
}

/* The area is rank 0's when run() returns: nothing to collect. */
static void collect(void *problem)
{
    (void)problem;
}

const struct app_mpi quad_mpi_driver = { app_mpi_begin, app_mpi_sync, collect, app_mpi_end };
