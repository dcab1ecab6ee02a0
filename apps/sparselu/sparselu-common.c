/*
 * sparselu-common.c - the blocked sparse LU's setup, check and main
 * (sparselu.h).
 *
 * --size is NB, the blocks per side, of SPARSELU_BS x SPARSELU_BS floats.
 * The work grows about as NB^3 (the fill-in makes the lower right of the
 * matrix dense).
 *
 * The check is a residual, independent of how the factors were computed:
 * L (U x) against A x for a vector x of entries in [1, 2) (L unit lower,
 * below the diagonal; U on and above it, as the factorization leaves them;
 * A generated again, entry by entry), each entry within n u |L| |U| |x| of
 * A x's (n the order, u the unit roundoff of floats: twice the bound of
 * [Higham, Theorem 9.3] for a computed LU), in double.  It costs about
 * 2 n^2 multiply-adds, a few percent of the factorization, and every entry
 * of the factors takes part: a missed or repeated update shows.  The
 * result and the digest are every block, null ones zero.
 */
#include <float.h>
#include <math.h>

#include "app.h"
#include "sparselu.h"

enum { BS = SPARSELU_BS };

#define NB_MAX 400

/* BOTS's structure [Duran]: the three central diagonals of blocks, and
 * the blocks of every third even row (above the diagonal) and column
 * (below it). */
static int nonnull(long ii, long jj)
{
    if (ii == jj || ii == jj - 1 || ii - 1 == jj)
        return 1;
    if (ii % 2 == 1 || jj % 2 == 1)
        return 0;
    return ii < jj ? ii % 3 == 0 : jj % 3 == 0;
}

/* Entry (r, c) of the matrix of order n, whose block is non-null. */
static float entry(long n, long r, long c)
{
    uint64_t state = (uint64_t)(r * n + c);
    float v = (float)(2 * app_rand_double(&state) - 1);
    return r == c ? v + (float)n : v; /* diagonally dominant by rows */
}

static size_t bytes(long size)
{
    size_t blocks = (size_t)size * (size_t)size;
    return app_bytes_add(app_bytes_add(sizeof(struct sparselu), blocks, sizeof(float *)),
                         blocks * BS * BS, sizeof(float));
}

static void *create(const struct app_args *args)
{
    struct sparselu *m = app_alloc(1, sizeof *m);
    m->tasks.body = sparselu_factor;
    long nb = m->nb = args->size, n = nb * BS;
    m->block = app_alloc((size_t)(nb * nb), sizeof *m->block);
    m->store = app_alloc((size_t)(nb * nb) * BS * BS, sizeof *m->store);
    for (long ii = 0; ii < nb; ++ii)
        for (long jj = 0; jj < nb; ++jj) {
            if (!nonnull(ii, jj))
                continue;
            float *b = m->block[ii * nb + jj] = m->store + (ii * nb + jj) * BS * BS;
            for (long i = 0; i < BS; ++i)
                for (long j = 0; j < BS; ++j)
                    b[i * BS + j] = entry(n, ii * BS + i, jj * BS + j);
            m->blocks++;
        }
    return m;
}

/* Entry (r, c) of the factors: L's below the diagonal, U's on and above. */
static double factor(const struct sparselu *m, long r, long c)
{
    const float *b = sparselu_block(m, r / BS, c / BS);
    return b == NULL ? 0.0 : b[r % BS * BS + c % BS];
}

static int check(void *problem)
{
    const struct sparselu *m = problem;
    long n = m->nb * BS;
    /* x, then y = U x and |U| |x|, then L y and |L| |U| |x| in place. */
    double *x = app_alloc((size_t)n, sizeof *x), *y = app_alloc((size_t)n, sizeof *y);
    double *bound = app_alloc((size_t)n, sizeof *bound);
    for (long c = 0; c < n; ++c) {
        uint64_t state = ~(uint64_t)c;
        x[c] = 1 + app_rand_double(&state);
    }
    for (long r = 0; r < n; ++r)
        for (long c = r; c < n; ++c) {
            double p = factor(m, r, c) * x[c];
            y[r] += p;
            bound[r] += fabs(p);
        }
    for (long r = n - 1; r >= 0; --r) /* row r of L reads rows k < r: from the bottom */
        for (long k = 0; k < r; ++k) {
            double l = factor(m, r, k);
            y[r] += l * y[k];
            bound[r] += fabs(l) * bound[k];
        }
    int ok = 1;
    for (long r = 0; r < n && ok; ++r) {
        double ax = 0;
        for (long c = 0; c < n; ++c)
            if (nonnull(r / BS, c / BS))
                ax += entry(n, r, c) * x[c];
        if (!(fabs(y[r] - ax) <= (double)n * (FLT_EPSILON / 2) * bound[r])) {
            fprintf(stderr, "sparselu: (L U x)[%ld] = %.9g, (A x)[%ld] = %.9g\n", r, y[r], r, ax);
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
    const struct sparselu *m = problem;
    *nbytes = (size_t)(m->nb * m->nb) * BS * BS * sizeof *m->store;
    return m->store;
}

static void fields(void *problem, FILE *out)
{
    const struct sparselu *m = problem;
    fprintf(out, " bs=%d blocks=%ld", BS, m->blocks);
    app_stats_print(&m->tasks.stats, out);
}

static void destroy(void *problem)
{
    struct sparselu *m = problem;
    app_free(m->block);
    app_free(m->store);
    app_free(m);
}

static const struct app_tasks_impls impls = {
    { app_tasks_seq, app_tasks_fil, APP_TASKS_OMP(app_tasks_omp) },
    { "sequential: BOTS's loops, the updates as calls",
      "Filaments: one root forks each phase's updates in a loop, f_join",
      "OpenMP tasks (libgomp): a task per update, taskwait per phase" },
};

static const struct app sparselu = {
    .name = "sparselu",
    .size_min = 1,
    .size_max = NB_MAX,
    .size_default = 80,
    .bytes = bytes,
    .create = create,
    .check = check,
    .result = result,
    .fields = fields,
    .destroy = destroy,
};

int main(int argc, char **argv)
{
    return app_tasks_main(&sparselu, &impls, argc, argv);
}
