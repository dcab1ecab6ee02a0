/*
 * lu.h - LU decomposition with partial pivoting, as Price and Lowenthal's
 * benchmark [Price §5.3.4, Figure 23]: a thread per row of the matrix.
 *
 * Figure 23 read as written, rows of a row-major matrix: step k searches
 * row k for its pivot (the entry of largest magnitude in columns k .. n-1),
 * swaps it into column k, and divides the rest of row k by it; that part is
 * sequential.  Then each row i swaps the same two columns, and each row
 * i > k subtracts a[i][k] times row k from its columns k+1 .. n-1: that
 * part is one thread per row.  (The figure swaps only in the rows below k,
 * and its swap names the wrong element; the columns have to be swapped in
 * every row for the factors to be those of the permuted matrix.)  The
 * result, in place, is
 *
 *     A P = L U,   L lower triangular (its diagonal holds the pivots),
 *                  U unit upper triangular (above the diagonal),
 *
 * P the column permutation: column j of A P is column perm[j] of A.  Every
 * program does a step with lu_pivot() and lu_row(), the same arithmetic in
 * the same order, so all of them produce bitwise identical factors.
 */
#ifndef LU_H
#define LU_H

#include <math.h>

struct lu {
    long n;
    double *a;        /* n x n, row-major: A, then the factors */
    long *perm;       /* the column permutation */
    void *store;      /* a, then perm: the result, digested and compared */
    double *a0;       /* A itself, for the check */
    long k;           /* the current step */
    long pivot;       /* its pivot's column (before the swap) */
    double residual;  /* what the check found */
};

/*
 * The sequential part of step k (alone, rows are not being updated): find
 * the pivot of row k, the first entry of the largest magnitude in columns
 * k .. n-1, swap it into column k (row k and perm only), and divide row k
 * right of the diagonal by it.
 */
static inline void lu_pivot(struct lu *f, long k)
{
    long n = f->n, p = k;
    double *r = f->a + k * n, max = fabs(r[k]);
    for (long j = k + 1; j < n; ++j) {
        if (fabs(r[j]) > max) {
            max = fabs(r[j]);
            p = j;
        }
    }
    f->k = k;
    f->pivot = p;
    if (p != k) {
        double t = r[k];
        long q = f->perm[k];
        r[k] = r[p];
        r[p] = t;
        f->perm[k] = f->perm[p];
        f->perm[p] = q;
    }
    double d = r[k];
    for (long j = k + 1; j < n; ++j)
        r[j] /= d;
}

/* Row i's part of step k, for i != k: the column swap, and below row k
 * the update.  Reads row k, writes row i only. */
static inline void lu_row(const struct lu *f, long i, long k, long p)
{
    long n = f->n;
    double *r = f->a + i * n;
    if (p != k) {
        double t = r[k];
        r[k] = r[p];
        r[p] = t;
    }
    if (i > k) {
        const double *u = f->a + k * n;
        double l = r[k];
        for (long j = k + 1; j < n; ++j)
            r[j] -= u[j] * l;
    }
}

/* The programs: run(problem, servers), as struct app_impl wants. */
void lu_seq(void *problem, int servers);
void lu_cg(void *problem, int servers);
void lu_fil(void *problem, int servers);

#endif /* LU_H */
