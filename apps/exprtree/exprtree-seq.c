/*
 * exprtree-seq.c - the matrix-expression tree, evaluated by recursion:
 * both subtrees, then the product.  No parallel constructs.
 */
#include "exprtree.h"

static void node(const struct exprtree *t, long k)
{
    if (k >= t->leaves)
        return;
    node(t, 2 * k);
    node(t, 2 * k + 1);
    for (long i = 0; i < t->n; ++i)
        exprtree_row(t, k, i);
}

void exprtree_seq(void *problem, int servers)
{
    node(problem, 1);
}
