/*
 * gauss-common.c - Gaussian elimination's setup, check and main [paper §3.4].
 *
 * A and b hold pseudo-random numbers in [-1, 1) from fixed seeds, A made
 * row by row: a dense random matrix, not diagonally dominant, so partial
 * pivoting really swaps rows (and random matrices are well conditioned in
 * practice).  The check regenerates A and b from the seeds (no copy is
 * kept), and accepts x if it is finite, no pivot was 0, and
 *     ||Ax - b||_1 <= 30 n DBL_EPSILON ||A||_1 ||x||_1,
 * LAPACK's test of a solve (xGET02) with its usual threshold, 30: partial
 * pivoting is backward stable, so the residual is a few rounding errors of
 * A times x whatever the conditioning.  The line reports the ratio
 * ||Ax - b||_1 / (||A||_1 ||x||_1) as residual=.  --verify compares the
 * whole eliminated matrix (the multipliers, U and b') and x with the
 * sequential program's, bitwise.
 */
#include <float.h>
#include <math.h>

#include "app.h"
#include "gauss.h"

#define SEED_A 1
#define SEED_B 2

static size_t bytes(long size)
{
    size_t n = (size_t)size, b = app_bytes_add(0, n + 2, n * sizeof(double));
    return b == 0 ? 0 : app_bytes_add(b, n, sizeof(long));
}

static void *create(const struct app_args *args)
{
    long n = args->size;
    struct gauss *g = app_alloc(1, sizeof *g);
    g->n = n;
    g->a = app_alloc((size_t)(n * (n + 2)), sizeof *g->a);
    g->x = g->a + n * (n + 1);
    g->piv = app_alloc((size_t)n, sizeof *g->piv);
    uint64_t sa = SEED_A, sb = SEED_B;
    for (long i = 0; i < n; ++i) {
        for (long j = 0; j < n; ++j)
            g->a[j * n + i] = 2.0 * app_rand_double(&sa) - 1.0;
        g->a[n * n + i] = 2.0 * app_rand_double(&sb) - 1.0;
    }
    return g;
}

static int check(void *problem)
{
    struct gauss *g = problem;
    long n = g->n;
    if (g->singular) {
        fprintf(stderr, "gauss: a pivot was 0: the matrix is singular\n");
        return 0;
    }
    double x_norm = 0.0;
    for (long i = 0; i < n; ++i) {
        if (!isfinite(g->x[i])) {
            fprintf(stderr, "gauss: x[%ld] is %g\n", i, g->x[i]);
            return 0;
        }
        x_norm += fabs(g->x[i]);
    }
    /* A again, row by row as it was made: r = Ax - b and A's column sums. */
    double *colsum = app_alloc((size_t)n, sizeof *colsum);
    double r_norm = 0.0, a_norm = 0.0;
    uint64_t sa = SEED_A, sb = SEED_B;
    for (long i = 0; i < n; ++i) {
        double r = 0.0;
        for (long j = 0; j < n; ++j) {
            double aij = 2.0 * app_rand_double(&sa) - 1.0;
            r += aij * g->x[j];
            colsum[j] += fabs(aij);
        }
        r_norm += fabs(r - (2.0 * app_rand_double(&sb) - 1.0));
    }
    for (long j = 0; j < n; ++j)
        if (colsum[j] > a_norm)
            a_norm = colsum[j];
    app_free(colsum);
    g->residual = r_norm == 0.0 ? 0.0 : r_norm / (a_norm * x_norm);
    double tol = 30.0 * (double)n * DBL_EPSILON;
    if (!(g->residual <= tol)) {
        fprintf(stderr, "gauss: ||Ax - b|| / (||A|| ||x||) is %g, more than 30 n eps = %g\n",
                g->residual, tol);
        return 0;
    }
    return 1;
}

static const void *result(void *problem, size_t *nbytes)
{
    const struct gauss *g = problem;
    *nbytes = (size_t)(g->n * (g->n + 2)) * sizeof *g->a;
    return g->a;
}

static void fields(void *problem, FILE *out)
{
    const struct gauss *g = problem;
    fprintf(out, " residual=%.3e", g->residual);
}

static void destroy(void *problem)
{
    struct gauss *g = problem;
    app_free(g->a);
    app_free(g->piv);
    app_free(g);
}

static const struct app_impl impls[] = {
    { "seq", gauss_seq, 0, "sequential: no parallel constructs" },
    { "cg", gauss_cg, 1, "coarse grain: one pthread per server, cyclic columns, two barriers" },
    { "fil", gauss_fil, 1, "Filaments: a pivot and an elimination filament per column" },
    { NULL, NULL, 0, NULL },
};

static const struct app gauss = {
    .name = "gauss",
    .impls = impls,
    .size_min = 1,
    .size_max = 100000,
    .size_default = 2000,
    .bytes = bytes,
    .create = create,
    .check = check,
    .result = result,
    .fields = fields,
    .destroy = destroy,
};

int main(int argc, char **argv)
{
    return app_main(&gauss, argc, argv);
}
