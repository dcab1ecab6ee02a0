/*
 * matmul-seq.c - the sequential matrix multiplication: no parallel
 * constructs [paper §3].
 */
#include "matmul.h"

void matmul_seq(void *problem, int servers)
{
    const struct matmul *m = problem;
    matmul_rows(m, 0, m->n);
}
