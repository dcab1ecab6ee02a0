/*
 * mandelbrot-seq.c - the sequential Mandelbrot image: no parallel
 * constructs [paper §3].
 */
#include "mandelbrot.h"

void mandel_seq(void *problem, int servers)
{
    const struct mandelbrot *m = problem;
    for (long i = 0; i < m->n; ++i)
        for (long j = 0; j < m->n; ++j)
            mandel_pixel(m, i, j);
}
