/*
 * exprtree.h - the matrix-expression tree of the Chores comparison
 * [paper §5; Eager and Zahorjan, Chores]: a complete binary tree whose
 * leaves are n x n matrices and whose interior nodes are matrix products,
 * evaluated bottom up.  The paper's two tests: 128 leaves of 25 x 25, and
 * 8 leaves of 100 x 100 (--shape=128x25, --shape=8x100).
 *
 * The tree is stored as a heap: node 1 is the root, node k has children 2k
 * and 2k + 1, nodes leaves .. 2 leaves - 1 are the leaves, so the value is
 * m[leaves] x m[leaves + 1] x ... x m[2 leaves - 1], multiplied in the
 * order the tree fixes.  Every program computes a row of a product with
 * exprtree_row(), the same loops in the same order, so all of them produce
 * bitwise identical matrices whichever way they split the work.
 */
#ifndef EXPRTREE_H
#define EXPRTREE_H

struct exprtree {
    long leaves;     /* a power of two, >= 2 */
    long n;          /* the order of every matrix */
    double **m;      /* m[k], k = 1 .. 2 leaves - 1: node k's matrix, n x n, row-major */
    double *store;   /* all of them */
};

/* Row i of node k's matrix: the product of its children's, row i, summed
 * over the inner index from 0 up for every entry. */
static inline void exprtree_row(const struct exprtree *t, long k, long i)
{
    long n = t->n;
    const double *a = t->m[2 * k] + i * n, *b = t->m[2 * k + 1];
    double *c = t->m[k] + i * n;
    for (long j = 0; j < n; ++j)
        c[j] = 0.0;
    for (long l = 0; l < n; ++l) {
        double ail = a[l];
        const double *bl = b + l * n;
        for (long j = 0; j < n; ++j)
            c[j] += ail * bl[j];
    }
}

/* The programs: run(problem, servers), as struct app_impl wants. */
void exprtree_seq(void *problem, int servers);
void exprtree_cg(void *problem, int servers);
void exprtree_fil(void *problem, int servers);
void exprtree_fil_tree(void *problem, int servers);

#endif /* EXPRTREE_H */
