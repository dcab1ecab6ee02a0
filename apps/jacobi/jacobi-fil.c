/*
 * jacobi-fil.c - the Filaments Jacobi iteration [paper §2.2, §3.2]: one
 * iterative filament per interior point, placed by strips of rows (server =
 * (i - 1) * nservers / n), created with j increasing along each row so that
 * each row of a strip is one run.
 *
 * relax() computes one point and folds its change into an F_MAX reduction,
 * through its server's slot, which it takes first (f_reduction_local), so
 * that the slot is loaded before the point's store, not after it: without
 * a range version, Jacobi runs 10% faster so (f_reduction(3)).
 * relax_range() is its range version, the loop over a run that the library
 * calls once per row when f_set_range_version names it (--impl=fil); without
 * it (--impl=fil-norange) the library calls relax() per point.  It is
 * written out rather than made by F_RANGE_VERSION(relax) so that the run's
 * largest change stays in a register and is reduced once per run, as the
 * coarse-grain program keeps its strip's: through the reduction slot, every
 * point would load and store memory that the grid stores might alias.  The
 * barrier's sequential code reads the reduction, counts the iteration and
 * swaps the grids (jacobi_end_iteration), as the paper's sequential_code().
 *
 * Each server creates the filaments of its own strip (f_create_per_server),
 * all at once, a row per call (f_iterative_row), so that its runs are first
 * touched by the server that walks them; --impl=fil-main creates them all
 * from the main thread, point by point, as the paper's program does, while
 * the servers wait.
 */
#include <filaments.h>

#include "app.h"
#include "jacobi.h"

struct fil {
    struct jacobi *g;
    f_reduction *maxdiff;
};

static inline void relax(long i, long j, void *arg)
{
    struct fil *f = arg;
    struct jacobi *g = f->g;
    double *max = f_reduction_local(f->maxdiff);
    double d = jacobi_point(g->old, g->new, g->w, i, j);
    if (d > *max)
        *max = d;
}

static void relax_range(long i, long j_begin, long j_end, void *arg)
{
    struct fil *f = arg;
    struct jacobi *g = f->g;
    const double *old = g->old;
    double *new = g->new;
    long w = g->w;
    double maxdiff = 0.0;
    for (long j = j_begin; j < j_end; ++j) {
        double d = jacobi_point(old, new, w, i, j);
        if (d > maxdiff)
            maxdiff = d;
    }
    f_reduce_max(f->maxdiff, maxdiff);
}

static int swap_and_test(void *arg)
{
    struct fil *f = arg;
    double maxdiff = f_reduction_value(f->maxdiff);
    f_reduction_reset(f->maxdiff);
    return jacobi_end_iteration(f->g, maxdiff) ? F_DONE : F_NOTDONE;
}

/* A server's creator: the points of its strip of rows, a row per call. */
static int create_strip(int server, int nservers, void *arg)
{
    struct fil *f = arg;
    long n = f->g->n;
    long end = 1 + app_strip_begin(server + 1, n, nservers);
    for (long i = 1 + app_strip_begin(server, n, nservers); i < end; ++i) {
        int rc = f_iterative_row(server, relax, i, 1, n + 1, f);
        if (rc < 0)
            return rc;
    }
    return 0;
}

static void run(struct jacobi *g, int servers, int range, int per_server)
{
    struct fil f = { g, NULL };
    app_check_f(f_initialize(servers), "f_initialize");
    if ((f.maxdiff = f_new_reduction(F_MAX)) == NULL)
        app_fail("f_new_reduction: out of memory");
    if (range)
        app_check_f(f_set_range_version(relax, relax_range), "f_set_range_version");
    /* A point's filament may run on any server: the largest change goes
     * through the running server's slot, and the reduction folds them all. */
    app_check_f(f_set_adaptive(F_ADAPT_ALL), "f_set_adaptive");
    int rc = f_new_barrier(swap_and_test, &f);
    app_check_f(rc, "f_new_barrier");
    if (per_server) {
        app_check_f(f_create_per_server(create_strip, &f), "f_create_per_server");
    } else {
        for (long i = 1; i <= g->n; ++i) {
            int server = (int)app_strip_of(i - 1, g->n, servers);
            for (long j = 1; j <= g->n; ++j)
                if ((rc = f_iterative_thread(server, relax, i, j, &f)) < 0)
                    app_check_f(rc, "f_iterative_thread");
        }
    }
    app_check_f(f_parallel(), "f_parallel");
    f_finalize();
}

void jacobi_fil(void *problem, int servers)
{
    run(problem, servers, 1, 1);
}

void jacobi_fil_norange(void *problem, int servers)
{
    run(problem, servers, 0, 1);
}

void jacobi_fil_main(void *problem, int servers)
{
    run(problem, servers, 1, 0);
}
