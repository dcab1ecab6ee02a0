/*
 * grid-mpi.c - Jacobi and red/black SOR on several MPI ranks (grid-mpi.h).
 *
 * Rank r owns rows [first, end), the strip app_mpi_strip deals it, as a
 * server's strip in the one-machine programs.  Before every phase, the
 * rank receives row first - 1 from the rank above and row end from the
 * one below, into its copy of the grid, and sends them its rows first and
 * end - 1, from copies: SOR updates its grid in place, and a send's buffer
 * must stay untouched until the send completes.  The rows that read no
 * halo, [inner_first, inner_end), are computed while the halos travel
 * (Freeh, Lowenthal and Andrews, "Distributed Filaments", OSDI 1994: other
 * filaments run while a message is in flight); rows first and end - 1 once
 * their halo has come.  Each needs its own halo only, so each rank needs
 * two rows at least.
 *
 * The Filaments program (kind GRID_MPI_FIL): one iterative filament per
 * inner row, each server creating its strip of them as one run, which a
 * range version computes whole, front to back; a phase's barrier
 * code folds the phase's F_MAX reduction into the iteration's maximum,
 * after the last phase reduces it across the ranks (MPI_Allreduce) and
 * ends the iteration, and then posts the next phase's halos and makes the
 * first and last rows wait for them (f_mpi_rtc_thread(3)), on whichever
 * server sees them come.  Barrier code and the main thread between runs are
 * the only places this program calls MPI, which MPI_THREAD_SERIALIZED
 * allows: the library polls only outside barrier code.
 */
#include <string.h>

#include <filaments-mpi.h>

#include "grid-mpi.h"

enum { TAG_HALO = 1 };

struct phase_end;

struct block {
    const struct grid_mpi_app *app;
    void *problem;
    int rank, ranks;
    long w;
    long first, end;              /* this rank's rows */
    long inner_first, inner_end;  /* those that read no halo */
    int overlap;
    double *sendbuf[2];           /* rows first and end - 1, as sent */
    MPI_Request recv[2], send[2]; /* [0]: with the rank above; [1]: below */
    /* The Filaments program. */
    f_reduction *maxdiff;         /* the phase's */
    double iter_max;              /* the iteration's phases so far (barrier code) */
};

static void block_init(struct block *b, const struct grid_mpi_app *app, void *problem,
                       int overlap)
{
    long n = app->n(problem);
    *b = (struct block){ .app = app, .problem = problem, .rank = app_mpi_rank(),
                         .ranks = app_mpi_ranks(), .w = n + 2, .overlap = overlap };
    app_mpi_strip(1, n, b->w, 2, &b->first, &b->end);
    b->inner_first = b->first + (b->rank > 0);
    b->inner_end = b->end - (b->rank < b->ranks - 1);
    for (int s = 0; s < 2; ++s)
        b->sendbuf[s] = app_alloc((size_t)b->w, sizeof(double));
}

static void block_free(struct block *b)
{
    for (int s = 0; s < 2; ++s)
        app_free(b->sendbuf[s]);
}

/* Post one side's exchange: receive row `halo`, send row `edge`. */
static void post_side(struct block *b, double *x, int side, int peer, long halo, long edge)
{
    size_t bytes = (size_t)b->w * sizeof *x;
    memcpy(b->sendbuf[side], x + edge * b->w, bytes);
    MPI_Irecv(x + halo * b->w, (int)b->w, MPI_DOUBLE, peer, TAG_HALO, MPI_COMM_WORLD,
              &b->recv[side]);
    MPI_Isend(b->sendbuf[side], (int)b->w, MPI_DOUBLE, peer, TAG_HALO, MPI_COMM_WORLD,
              &b->send[side]);
}

/* Post the exchange of the halos of grid 0, which the next phase reads. */
static void post(struct block *b)
{
    double *x = b->app->grid(b->problem, 0);
    for (int s = 0; s < 2; ++s)
        b->recv[s] = b->send[s] = MPI_REQUEST_NULL;
    if (b->rank > 0)
        post_side(b, x, 0, b->rank - 1, b->first - 1, b->first);
    if (b->rank < b->ranks - 1)
        post_side(b, x, 1, b->rank + 1, b->end, b->end - 1);
}

static void wait_all(struct block *b)
{
    MPI_Waitall(2, b->recv, MPI_STATUSES_IGNORE);
    MPI_Waitall(2, b->send, MPI_STATUSES_IGNORE);
}

static double max2(double a, double b)
{
    return b > a ? b : a;
}

/* The iteration's largest change, across the ranks. */
static double reduce_ranks(double local)
{
    double global;
    MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return global;
}

/* ------------------------------------------------- the coarse-grain loop */

static void run_loop(struct block *b)
{
    const struct grid_mpi_app *app = b->app;
    double iter_max = 0.0;
    for (int phase = 0;; phase = (phase + 1) % app->phases) {
        post(b);
        double m;
        if (b->overlap) {
            m = app->rows(b->problem, phase, b->inner_first, b->inner_end);
            wait_all(b);
            m = max2(m, app->rows(b->problem, phase, b->first, b->inner_first));
            m = max2(m, app->rows(b->problem, phase, b->inner_end, b->end));
        } else {
            wait_all(b);
            m = app->rows(b->problem, phase, b->first, b->end);
        }
        iter_max = max2(iter_max, m);
        if (phase == app->phases - 1) {
            if (app->end_iteration(b->problem, reduce_ranks(iter_max)))
                return;
            iter_max = 0.0;
        }
    }
}

/* --------------------------------------------------- Filaments per rank */

/* Rows [first, end) of a phase. */
static void rows_of_phase(long phase, long first, long end, void *arg)
{
    struct block *b = arg;
    f_reduce_max(b->maxdiff, b->app->rows(b->problem, (int)phase, first, end));
}

/* Row j of phase i: a point of a server's run of iterative rows, which the
 * library passes to the range version, rows_of_phase, whole; or an RTC
 * filament that waited for its halo. */
static void phase_row(long phase, long j, void *arg)
{
    rows_of_phase(phase, j, j + 1, arg);
}

/* Post the halos of `phase`; with overlap, rows first and end - 1 wait for
 * theirs, otherwise wait here.  The main thread or barrier code. */
static void exchange(struct block *b, int phase)
{
    post(b);
    if (!b->overlap) {
        wait_all(b);
        return;
    }
    const long rows[2] = { b->first, b->end - 1 };
    for (int s = 0; s < 2; ++s) {
        if (b->recv[s] == MPI_REQUEST_NULL)
            continue;
        app_check_f(f_mpi_rtc_thread(&b->recv[s], F_ANY, phase_row, phase, rows[s], b),
                    "f_mpi_rtc_thread");
        app_check_f(f_mpi_rtc_thread(&b->send[s], F_ANY, NULL, 0, 0, NULL), "f_mpi_rtc_thread");
    }
}

struct phase_end {
    struct block *b;
    int phase;
    long lo, hi;  /* its iterative rows */
};

/* A phase's barrier code. */
static int end_phase(void *arg)
{
    const struct phase_end *e = arg;
    struct block *b = e->b;
    const struct grid_mpi_app *app = b->app;
    b->iter_max = max2(b->iter_max, f_reduction_value(b->maxdiff));
    f_reduction_reset(b->maxdiff);
    if (e->phase == app->phases - 1) {
        if (app->end_iteration(b->problem, reduce_ranks(b->iter_max)))
            return F_DONE;
        b->iter_max = 0.0;
    }
    exchange(b, (e->phase + 1) % app->phases);
    return F_NOTDONE;
}

/* A server's creator: its strip of the phase's iterative rows, as one run.
 * The run's range version walks the rows forward in every pass; a row per
 * filament, each a run of its own, made the library alternate the passes'
 * direction (f_iterative_thread(3)), and Jacobi 1024 on one rank ran 1.10
 * times the one-machine Filaments program so, 1.02 with every pass forward. */
static int create_rows(int server, int nservers, void *arg)
{
    const struct phase_end *e = arg;
    long count = e->hi - e->lo;
    long first = e->lo + app_strip_begin(server, count, nservers);
    long end = e->lo + app_strip_begin(server + 1, count, nservers);
    return f_iterative_row(server, phase_row, e->phase, first, end, e->b);  /* may be empty */
}

static void run_fil(struct block *b, int servers)
{
    const struct grid_mpi_app *app = b->app;
    struct phase_end *ends = app_alloc((size_t)app->phases, sizeof *ends);
    app_check_f(f_initialize(servers), "f_initialize");
    app_check_f(f_mpi_initialize(), "f_mpi_initialize");
    if ((b->maxdiff = f_new_reduction(F_MAX)) == NULL)
        app_fail("f_new_reduction: out of memory");
    app_check_f(f_set_range_version(phase_row, rows_of_phase), "f_set_range_version");
    for (int p = 0; p < app->phases; ++p) {
        ends[p] = b->overlap ? (struct phase_end){ b, p, b->inner_first, b->inner_end }
                             : (struct phase_end){ b, p, b->first, b->end };
        app_check_f(f_new_barrier(end_phase, &ends[p]), "f_new_barrier");
        app_check_f(f_create_per_server(create_rows, &ends[p]), "f_create_per_server");
    }
    exchange(b, 0);
    app_check_f(f_parallel(), "f_parallel");
    app_check_f(f_mpi_finalize(), "f_mpi_finalize");
    f_finalize();
    app_free(ends);
}

void grid_mpi_run(const struct grid_mpi_app *app, void *problem, int servers,
                  enum grid_mpi_kind kind, int overlap)
{
    struct block b;
    block_init(&b, app, problem, overlap);
    if (kind == GRID_MPI_FIL)
        run_fil(&b, servers);
    else
        run_loop(&b);
    block_free(&b);
}

void grid_mpi_collect(const struct grid_mpi_app *app, void *problem)
{
    long n = app->n(problem);
    for (int k = 0; k < app->ngrids; ++k)
        app_mpi_gather_strips(app->grid(problem, k), 1, n, n + 2);
}
