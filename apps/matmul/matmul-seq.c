/*
 * matmul-seq.c - the sequential matrix multiplication: no parallel
 * constructs [paper §3].
 */
#include "matmul.h"

void matmul_seq(void *problem, int servers)
{
    const struct matmul *m = problem;
    for (long i = 0; i < m->n; ++i)
        for (long j = 0; j < m->n; ++j)
            matmul_inner(m, i, j);
}
