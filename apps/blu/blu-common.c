/*
 * blu-common.c - the blocked LU's setup, check and main (blu.h).
 *
 * --size is n, the matrix's order, a multiple of BLU_BS (else a bad
 * option).  The entries are a hash of their place (app_rand) in [-1, 1),
 * and the diagonal's get n more, so that the matrix is diagonally dominant
 * by rows and the factorization without pivoting is stable (Rodinia's
 * matrices are too).  The work grows as n^3.
 *
 * The check is sparselu's residual (apps/sparselu/sparselu-common.c),
 * independent of how the factors were computed: L (U x) against A x for a
 * vector x of entries in [1, 2), A generated again entry by entry, each
 * entry within 2 n u |L| |U| |x| of A x's (u the unit roundoff of floats;
 * [Higham, Theorem 9.3]), in double.  It costs about 2 n^2 multiply-adds,
 * and every entry of the factors takes part.  The result and the digest
 * are the factors.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "app.h"
#include "blu.h"

#define N_MAX 32768 /* a 4 GB matrix */

/* Entry (r, c) of A, of order n. */
static float entry(long n, long r, long c)
{
    uint64_t state = (uint64_t)(r * n + c);
    float v = (float)(2 * app_rand_double(&state) - 1);
    return r == c ? v + (float)n : v;
}

static size_t bytes(long size)
{
    if (size % BLU_BS != 0) {
        /* Bad option: one line, exit status 2, as app.c's (which knows ranges, not multiples). */
        fprintf(stderr, "blu: --size: expected a multiple of %d from %d to %d, got '%ld'\n", BLU_BS,
                BLU_BS, N_MAX, size);
        exit(2);
    }
    return app_bytes_add(sizeof(struct blu), (size_t)size * (size_t)size, sizeof(float));
}

static void *create(const struct app_args *args)
{
    long n = args->size;
    struct blu *m = app_alloc(1, sizeof *m);
    *m = (struct blu){ .n = n, .nb = n / BLU_BS };
    m->a = app_alloc((size_t)(n * n), sizeof *m->a);
    for (long r = 0; r < n; ++r)
        for (long c = 0; c < n; ++c)
            m->a[r * n + c] = entry(n, r, c);
    return m;
}

static int check(void *problem)
{
    const struct blu *m = problem;
    long n = m->n;
    const float *a = m->a;
    /* x, then y = U x and |U| |x|, then L y and |L| |U| |x| in place. */
    double *x = app_alloc((size_t)n, sizeof *x), *y = app_alloc((size_t)n, sizeof *y);
    double *bound = app_alloc((size_t)n, sizeof *bound);
    for (long c = 0; c < n; ++c) {
        uint64_t state = ~(uint64_t)c;
        x[c] = 1 + app_rand_double(&state);
    }
    for (long r = 0; r < n; ++r)
        for (long c = r; c < n; ++c) {
            double p = a[r * n + c] * x[c];
            y[r] += p;
            bound[r] += fabs(p);
        }
    for (long r = n - 1; r >= 0; --r) /* row r of L reads rows k < r: from the bottom */
        for (long k = 0; k < r; ++k) {
            double l = a[r * n + k];
            y[r] += l * y[k];
            bound[r] += fabs(l) * bound[k];
        }
    int ok = 1;
    for (long r = 0; r < n && ok; ++r) {
        double ax = 0;
        for (long c = 0; c < n; ++c)
            ax += entry(n, r, c) * x[c];
        if (!(fabs(y[r] - ax) <= (double)n * FLT_EPSILON * bound[r])) {
            fprintf(stderr, "blu: (L U x)[%ld] = %.9g, (A x)[%ld] = %.9g\n", r, y[r], r, ax);
            ok = 0;
        }
    }
    app_free(x);
    app_free(y);
    app_free(bound);
    return ok;
}

static const void *result(void *problem, size_t *nbytes)
{
    const struct blu *m = problem;
    *nbytes = (size_t)(m->n * m->n) * sizeof *m->a;
    return m->a;
}

static void fields(void *problem, FILE *out)
{
    fprintf(out, " bs=%d", BLU_BS);
}

static void destroy(void *problem)
{
    struct blu *m = problem;
    app_free(m->a);
    app_free(m);
}

static const struct app_impl impls[] = {
    { "seq", blu_seq, 0, "sequential: each step's phases in order, no parallel constructs" },
    { "cg", blu_cg, 1, "coarse grain: one pthread per server, a strip of each phase, barriers" },
    { "fil", blu_fil, 1, "Filaments: a parallel loop per phase of each step (f_parallel_for)" },
#ifdef HAVE_OMP
    { "omp", blu_omp, 1, "OpenMP (libgomp): parallel for per phase of each step, as Rodinia" },
#endif
    { NULL, NULL, 0, NULL },
};

static const struct app blu = {
    .name = "blu",
    .impls = impls,
    .size_min = BLU_BS,
    .size_max = N_MAX,
    .size_default = 1024,
    .bytes = bytes,
    .create = create,
    .check = check,
    .result = result,
    .fields = fields,
    .destroy = destroy,
};

int main(int argc, char **argv)
{
    return app_main(&blu, argc, argv);
}
