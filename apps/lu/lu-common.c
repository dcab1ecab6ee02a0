/*
 * lu-common.c - LU decomposition's setup, check and main [Price §5.3.4].
 *
 * A holds pseudo-random numbers, uniform in [-1, 1), from a fixed seed.
 * The check: perm is a permutation, every factor is finite, and the
 * residual of the factorization on a sample of rows (all rows up to 256,
 * else 256 rows spread evenly),
 *
 *     residual = |A P - L U|_F / |A|_F   over the sampled rows,
 *
 * is at most TOLERANCE_ULPS * n * DBL_EPSILON (partial pivoting is
 * backward stable: on random matrices the residual is a small multiple
 * of DBL_EPSILON, growing about as sqrt(n)).  The line reports it as
 * residual=; --verify compares the factors and perm with the sequential
 * program's bitwise.
 */
#include <float.h>
#include <math.h>

#include "app.h"
#include "lu.h"

#define SAMPLE_ROWS 256
#define TOLERANCE_ULPS 16.0

static size_t bytes(long size)
{
    size_t n = (size_t)size;
    size_t total = app_bytes_add(0, 2 * n, n * sizeof(double));  /* a, a0 */
    return total == 0 ? 0 : app_bytes_add(total, n, sizeof(long));
}

static void *create(const struct app_args *args)
{
    long n = args->size;
    struct lu *f = app_alloc(1, sizeof *f);
    f->n = n;
    f->store = app_alloc(1, (size_t)(n * n) * sizeof(double) + (size_t)n * sizeof(long));
    f->a = f->store;
    f->perm = (long *)(f->a + n * n);
    f->a0 = app_alloc((size_t)(n * n), sizeof *f->a0);
    uint64_t seed = 1;
    for (long e = 0; e < n * n; ++e)
        f->a[e] = f->a0[e] = 2.0 * app_rand_double(&seed) - 1.0;
    for (long j = 0; j < n; ++j)
        f->perm[j] = j;
    return f;
}

/* (L U)[i][j] from the factors in a. */
static double lu_entry(const double *a, long n, long i, long j)
{
    long m_end = i < j ? i : j;
    double s = 0.0;
    for (long m = 0; m < m_end; ++m)
        s += a[i * n + m] * a[m * n + j];
    /* m = min(i, j): L[i][i] * U[i][j] above the diagonal, L[i][j] * 1 on and below it */
    return s + (i < j ? a[i * n + i] * a[i * n + j] : a[i * n + j]);
}

static int check(void *problem)
{
    struct lu *f = problem;
    long n = f->n;
    char *seen = app_alloc((size_t)n, 1);
    for (long j = 0; j < n; ++j) {
        if (f->perm[j] < 0 || f->perm[j] >= n || seen[f->perm[j]]++) {
            fprintf(stderr, "lu: perm is not a permutation (perm[%ld] = %ld)\n", j, f->perm[j]);
            app_free(seen);
            return 0;
        }
    }
    app_free(seen);
    long rows = n < SAMPLE_ROWS ? n : SAMPLE_ROWS;
    double diff = 0.0, norm = 0.0;
    for (long t = 0; t < rows; ++t) {
        long i = t * n / rows;
        for (long j = 0; j < n; ++j) {
            double want = f->a0[i * n + f->perm[j]], d = lu_entry(f->a, n, i, j) - want;
            diff += d * d;
            norm += want * want;
        }
    }
    f->residual = sqrt(diff) / sqrt(norm);
    double tolerance = TOLERANCE_ULPS * (double)n * DBL_EPSILON;
    if (!(f->residual <= tolerance)) {  /* NaN fails too */
        fprintf(stderr, "lu: |AP - LU| / |A| = %.3e on %ld rows, more than %.3e\n", f->residual,
                rows, tolerance);
        return 0;
    }
    return 1;
}

static const void *result(void *problem, size_t *nbytes)
{
    const struct lu *f = problem;
    *nbytes = (size_t)(f->n * f->n) * sizeof(double) + (size_t)f->n * sizeof(long);
    return f->store;
}

static void fields(void *problem, FILE *out)
{
    const struct lu *f = problem;
    fprintf(out, " residual=%.3e", f->residual);
}

static void destroy(void *problem)
{
    struct lu *f = problem;
    app_free(f->a0);
    app_free(f->store);
    app_free(f);
}

static const struct app_impl impls[] = {
    { "seq", lu_seq, 0, "sequential: no parallel constructs" },
    { "cg", lu_cg, 1, "coarse grain: pthreads, rows dealt cyclically, a spin barrier per step" },
    { "fil", lu_fil, 1, "Filaments: an iterative filament per row, a pass per step" },
    { NULL, NULL, 0, NULL },
};

static const struct app lu = {
    .name = "lu",
    .impls = impls,
    .size_min = 1,
    .size_max = 100000,
    .size_default = 1000,
    .bytes = bytes,
    .create = create,
    .check = check,
    .result = result,
    .fields = fields,
    .destroy = destroy,
};

int main(int argc, char **argv)
{
    return app_main(&lu, argc, argv);
}
