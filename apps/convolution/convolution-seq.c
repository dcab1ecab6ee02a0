/*
 * convolution-seq.c - the sequential adjoint convolution: no parallel
 * constructs [paper §3].
 */
#include "convolution.h"

void conv_seq(void *problem, int servers)
{
    const struct convolution *v = problem;
    for (long i = 0; i < v->m; ++i)
        conv_point(v, i);
}
