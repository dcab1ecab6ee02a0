/*
 * lu-seq.c - the sequential LU decomposition: Figure 23's steps with the
 * rows in a loop.  No parallel constructs.
 */
#include "lu.h"

void lu_seq(void *problem, int servers)
{
    struct lu *f = problem;
    for (long k = 0; k < f->n - 1; ++k) {
        lu_pivot(f, k);
        for (long i = 0; i < f->n; ++i)
            if (i != k)
                lu_row(f, i, k, f->pivot);
    }
}
