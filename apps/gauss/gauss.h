/*
 * gauss.h - Gaussian elimination with partial pivoting, solving Ax = b for
 * an n x n system [paper §3.4].
 *
 * The matrix is stored by columns and augmented with b as column n, so that
 * a column, the unit of work that the parallel programs hand out, is
 * contiguous.  Step k = 0 .. n-1 has two parts, as in the paper:
 *  - the pivot (gauss_pivot, column k only): find the row p >= k whose entry
 *    in column k is largest in magnitude (the first such row), record it in
 *    piv[k], swap entries k and p of column k, and turn the entries below
 *    the diagonal into the multipliers l[i] = a[i][k] / a[k][k];
 *  - the elimination (gauss_eliminate, each column j > k, b included, on
 *    its own): swap entries k and p of column j, then a[i][j] -= l[i] *
 *    a[k][j] for every i > k.
 * Columns left of k are never touched again, so rows are swapped only to
 * the right of the pivot (the multipliers of earlier steps stay where they
 * were computed: L is not needed to solve for this one b).  Every program
 * runs these two functions, so each entry sees the same operations in the
 * same order and the results are bitwise identical, whatever the order of
 * the columns within a step.  Then gauss_back_substitute() solves Ux = b'
 * sequentially, O(n^2) against the elimination's O(n^3), in every program.
 */
#ifndef GAUSS_H
#define GAUSS_H

#include <math.h>

struct gauss {
    long n;
    double *a;      /* n rows, n + 1 columns by column: a[j * n + i] is row i, column j;
                       then x: one block, so that the digest covers both */
    double *x;      /* a + n * (n + 1): the solution */
    long *piv;      /* piv[k]: the row swapped with row k at step k */
    long k;         /* the step under way (the parallel programs' barrier code) */
    int singular;   /* a pivot was 0: set by gauss_pivot */
    double residual;  /* ||Ax - b||_1 / (||A||_1 ||x||_1), set by the check */
};

static inline double *gauss_column(const struct gauss *g, long j)
{
    return g->a + j * g->n;
}

/* Step k's pivot, in column k. */
static inline void gauss_pivot(struct gauss *g, long k)
{
    long n = g->n, p = k;
    double *col = gauss_column(g, k);
    for (long i = k + 1; i < n; ++i)
        if (fabs(col[i]) > fabs(col[p]))
            p = i;
    g->piv[k] = p;
    double t = col[k];
    col[k] = col[p];
    col[p] = t;
    if (col[k] == 0.0) {
        g->singular = 1;  /* the column is zero from k down: multipliers stay 0 */
        return;
    }
    for (long i = k + 1; i < n; ++i)
        col[i] /= col[k];
}

/* Step k's elimination in column j > k. */
static inline void gauss_eliminate(const struct gauss *g, long k, long j)
{
    long n = g->n, p = g->piv[k];
    const double *l = gauss_column(g, k);
    double *col = gauss_column(g, j);
    double t = col[p];
    col[p] = col[k];
    col[k] = t;
    for (long i = k + 1; i < n; ++i)
        col[i] -= l[i] * t;
}

/* Ux = b', from the bottom row up, by columns. */
static inline void gauss_back_substitute(struct gauss *g)
{
    long n = g->n;
    double *x = g->x;
    const double *b = gauss_column(g, n);
    for (long i = 0; i < n; ++i)
        x[i] = b[i];
    for (long k = n - 1; k >= 0; --k) {
        const double *u = gauss_column(g, k);
        x[k] /= u[k];
        for (long i = 0; i < k; ++i)
            x[i] -= u[i] * x[k];
    }
}

/* The programs: run(problem, servers), as struct app_impl wants. */
void gauss_seq(void *problem, int servers);
void gauss_cg(void *problem, int servers);
void gauss_fil(void *problem, int servers);

#endif /* GAUSS_H */
