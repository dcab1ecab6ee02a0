/*
 * jacobi-common.c - Jacobi iteration's setup, check and main [paper §3.2].
 *
 * The grid, its boundary and the stopping rule are grid.h's.  The default check
 * is exact and cheap (one sweep): both grids still hold the boundary, the
 * iteration count agrees with --iters and --epsilon, and recomputing the
 * last iteration from the previous grid (`old`, never swapped after the
 * last one) gives the result bitwise and the reported maxdiff exactly.
 */
#include <string.h>

#include "app.h"
#include "grid.h"
#include "jacobi.h"

static size_t bytes(long size)
{
    return grid_bytes(size, 2);
}

static void *create(const struct app_args *args)
{
    long n = args->size, w = n + 2;
    struct jacobi *g = app_alloc(1, sizeof *g);
    *g = (struct jacobi){ .n = n, .w = w, .iters = grid_iters, .epsilon = grid_epsilon };
    g->old = grid_new(n);
    g->new = grid_new(n);
    return g;
}

static int same(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

static int check(void *problem)
{
    const struct jacobi *g = problem;
    long n = g->n, w = g->w;
    if (!grid_boundary_intact("jacobi", g->old, n) || !grid_boundary_intact("jacobi", g->new, n) ||
        !grid_iterations_agree("jacobi", g->k, g->iters, g->maxdiff, g->epsilon))
        return 0;
    double maxdiff = 0.0;
    for (long i = 1; i <= n; ++i) {
        for (long j = 1; j <= n; ++j) {
            double v = jacobi_value(g->old, w, i, j);
            if (!same(v, g->new[i * w + j])) {
                fprintf(stderr, "jacobi: point (%ld, %ld) is %.17g, its recomputation %.17g\n", i,
                        j, g->new[i * w + j], v);
                return 0;
            }
            double d = fabs(v - g->old[i * w + j]);
            if (d > maxdiff)
                maxdiff = d;
        }
    }
    if (!same(maxdiff, g->maxdiff)) {
        fprintf(stderr, "jacobi: maxdiff is %.17g, its recomputation %.17g\n", g->maxdiff, maxdiff);
        return 0;
    }
    return 1;
}

static const void *result(void *problem, size_t *nbytes)
{
    const struct jacobi *g = problem;
    *nbytes = (size_t)(g->w * g->w) * sizeof *g->new;
    return g->new;
}

static void fields(void *problem, FILE *out)
{
    const struct jacobi *g = problem;
    fprintf(out, " iters=%ld maxdiff=%.6e", g->k, g->maxdiff);
}

static void destroy(void *problem)
{
    struct jacobi *g = problem;
    app_free(g->old);
    app_free(g->new);
    app_free(g);
}

static const struct app_impl impls[] = {
    { "seq", jacobi_seq, 0, "sequential: no parallel constructs" },
#ifndef APP_OMP_LLVM
    { "cg", jacobi_cg, 1, "coarse grain: one pthread per server, strips, a spin barrier" },
    { "fil", jacobi_fil, 1, "Filaments: one iterative filament per point, range version" },
    { "fil-norange", jacobi_fil_norange, 1, "Filaments, no range version: a call per point" },
    { "fil-main", jacobi_fil_main, 1, "Filaments, the main thread creating every filament" },
    { "fil-for", jacobi_fil_for, 1, "Filaments: a parallel loop over the rows per iteration" },
    { "calls", jacobi_calls, 0, "sequential, one call per point through a function pointer" },
#ifdef HAVE_MPI
    { "mpi-fil", jacobi_mpi_fil, APP_PARALLEL | APP_MPI,
      "MPI ranks (mpirun -np R), Filaments in each: halos hidden behind rows" },
    { "mpi-fil-nooverlap", jacobi_mpi_fil_nooverlap, APP_PARALLEL | APP_MPI,
      "MPI ranks, Filaments in each: barrier code waits for the halos" },
    { "mpi", jacobi_mpi, APP_MPI, "MPI ranks, one thread each: inner rows while halos travel" },
    { "mpi-nooverlap", jacobi_mpi_nooverlap, APP_MPI, "MPI ranks, one thread each: post, wait, compute" },
#endif
#ifdef HAVE_OMP
    { "omp", jacobi_omp, 1, "OpenMP (libgomp): a task per point, taskwait per iteration" },
    { "omp-for", jacobi_omp_for, 1, "OpenMP (libgomp): omp for over the rows, static" },
    { "omp-dynamic", jacobi_omp_dynamic, 1, "OpenMP (libgomp): omp for, schedule(dynamic), a row" },
#endif
#ifdef HAVE_TBB
    { "tbb", jacobi_tbb, 1, "oneTBB: parallel_for, a task per point, per iteration" },
#endif
#else
    { "omp-llvm", jacobi_omp, 1, "OpenMP (LLVM libomp): a task per point" },
    { "omp-llvm-for", jacobi_omp_for, 1, "OpenMP (LLVM libomp): omp for over the rows" },
    { "omp-llvm-dynamic", jacobi_omp_dynamic, 1, "OpenMP (LLVM libomp): omp for, dynamic, a row" },
#endif
    { NULL, NULL, 0, NULL },
};

static const struct app_option options[] = {
    GRID_OPTIONS,
    { NULL, 0, 0, 0, 0, 0, NULL, NULL },
};

static const struct app jacobi = {
    .name = "jacobi",
    .impls = impls,
    .options = options,
    .size_min = 1,
    .size_max = 100000,
    .size_default = 300,
    .bytes = bytes,
    .create = create,
    .check = check,
    .result = result,
    .fields = fields,
    .destroy = destroy,
#ifdef HAVE_MPI
    .mpi = &jacobi_mpi_driver,
#endif
};

int main(int argc, char **argv)
{
    return app_main(&jacobi, argc, argv);
}
