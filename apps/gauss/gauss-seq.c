/*
 * gauss-seq.c - the sequential Gaussian elimination: no parallel
 * constructs [paper §3].
 */
#include "gauss.h"

void gauss_seq(void *problem, int servers)
{
    struct gauss *g = problem;
    for (long k = 0; k < g->n; ++k) {
        gauss_pivot(g, k);
        for (long j = k + 1; j <= g->n; ++j)
            gauss_eliminate(g, k, j);
    }
    gauss_back_substitute(g);
}
