/*
 * sor-common.c - red/black SOR's setup, check and main [paper §2.2].
 *
 * The grid, boundary and stopping rule of Jacobi (grid.h).  The
 * default check is cheap (one pass over the grid): the boundary is
 * unchanged, every value is finite, the iteration count agrees with
 * --iters and --epsilon, and the final grid is consistent with the
 * reported maxdiff.  After the last iteration, a black point's residual
 * (mean of its neighbours - value) is (1/omega - 1) times its last change,
 * and a red point's is (1/omega - 1) times its last change plus the mean
 * change of its black neighbours since, so
 *     |residual| <= maxdiff * |1/omega - 1|          (black)
 *     |residual| <= maxdiff * (|1/omega - 1| + 1)    (red)
 * up to rounding.  --verify compares the grid with the sequential program's
 * bitwise.
 */
#include <float.h>

#include "app.h"
#include "grid.h"
#include "sor.h"

static double omega = 1.5;

static size_t bytes(long size)
{
    return grid_bytes(size, 1);
}

static void *create(const struct app_args *args)
{
    long n = args->size, w = n + 2;
    struct sor *s = app_alloc(1, sizeof *s);
    *s = (struct sor){
        .n = n, .w = w, .omega = omega, .iters = grid_iters, .epsilon = grid_epsilon
    };
    s->x = grid_new(n);
    return s;
}

static int check(void *problem)
{
    const struct sor *s = problem;
    long n = s->n, w = s->w;
    if (!grid_boundary_intact("sor", s->x, n) ||
        !grid_iterations_agree("sor", s->k, s->iters, s->maxdiff, s->epsilon))
        return 0;
    for (long k = 0; k < w * w; ++k) {
        if (!isfinite(s->x[k])) {
            fprintf(stderr, "sor: point (%ld, %ld) is %g\n", k / w, k % w, s->x[k]);
            return 0;
        }
    }
    double scale = 0.0;
    for (long k = 0; k < w * w; ++k)
        if (fabs(s->x[k]) > scale)
            scale = fabs(s->x[k]);
    double slack = 16 * DBL_EPSILON * (1.0 + scale) * (1.0 + 1.0 / s->omega);
    double factor = fabs(1.0 / s->omega - 1.0);
    for (long i = 1; i <= n; ++i) {
        for (long j = 1; j <= n; ++j) {
            const double *p = s->x + i * w + j;
            double residual = fabs((p[-w] + p[w] + p[-1] + p[1]) * 0.25 - p[0]);
            int red = (i + j) % 2 == 0;
            double bound = s->maxdiff * (red ? factor + 1.0 : factor) * (1.0 + 1e-12) + slack;
            if (!(residual <= bound)) {
                fprintf(stderr, "sor: %s point (%ld, %ld) has residual %g, more than %g "
                        "for maxdiff %g\n", red ? "red" : "black", i, j, residual, bound,
                        s->maxdiff);
                return 0;
            }
        }
    }
    return 1;
}

static const void *result(void *problem, size_t *nbytes)
{
    const struct sor *s = problem;
    *nbytes = (size_t)(s->w * s->w) * sizeof *s->x;
    return s->x;
}

static void fields(void *problem, FILE *out)
{
    const struct sor *s = problem;
    fprintf(out, " omega=%g iters=%ld maxdiff=%.6e", s->omega, s->k, s->maxdiff);
}

static void destroy(void *problem)
{
    struct sor *s = problem;
    app_free(s->x);
    app_free(s);
}

static const struct app_impl impls[] = {
    { "seq", sor_seq, 0, "sequential: no parallel constructs" },
    { "cg", sor_cg, 1, "coarse grain: one pthread per server, strips, two spin barriers" },
    { "fil", sor_fil, 1, "Filaments: two phases, a filament per point, a continuation" },
    { "fil-for", sor_fil_for, 1, "Filaments: two parallel loops over the rows per iteration" },
#ifdef HAVE_MPI
    { "mpi-fil", sor_mpi_fil, APP_PARALLEL | APP_MPI,
      "MPI ranks (mpirun -np R), Filaments in each: halos hidden behind rows" },
    { "mpi-fil-nooverlap", sor_mpi_fil_nooverlap, APP_PARALLEL | APP_MPI,
      "MPI ranks, Filaments in each: barrier code waits for the halos" },
    { "mpi", sor_mpi, APP_MPI, "MPI ranks, one thread each: inner rows while halos travel" },
    { "mpi-nooverlap", sor_mpi_nooverlap, APP_MPI, "MPI ranks, one thread each: post, wait, compute" },
#endif
    { NULL, NULL, 0, NULL },
};

static const struct app_option options[] = {
    GRID_OPTIONS,
    { "omega", APP_DOUBLE, 0, 2, 1, 1, &omega, "the over-relaxation factor" },
    { NULL, 0, 0, 0, 0, 0, NULL, NULL },
};

static const struct app sor = {
    .name = "sor",
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
    .mpi = &sor_mpi_driver,
#endif
};

int main(int argc, char **argv)
{
    return app_main(&sor, argc, argv);
}
