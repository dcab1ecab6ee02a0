/*
 * mandelbrot-fil-for.c - the Mandelbrot image with the parallel loop call
 * (--impl=fil-for; f_parallel_for_dynamic, f_parallel_for(3)), as an
 * OpenMP user writes it: one loop over the rows, schedule(dynamic) a row
 * at a time, since the rows' work differs (most of it in the middle ones)
 * and a static split would leave the outer strips' servers idle.  Beside
 * --impl=fil, a run-to-completion filament per pixel as the paper has.
 */
#include <filaments.h>

#include "app.h"
#include "mandelbrot.h"

F_LOOP_1(rows, lo, hi, const struct mandelbrot *, m)
{
    for (long i = lo; i < hi; ++i)
        for (long j = 0; j < m->n; ++j)
            mandel_pixel(m, i, j);
}

void mandel_fil_for(void *problem, int servers)
{
    const struct mandelbrot *m = problem;
    app_check_f(f_initialize(servers), "f_initialize");
    app_check_f(F_PARALLEL_FOR_DYNAMIC(rows, 0, m->n, 1, m), "f_parallel_for_dynamic");
    f_finalize();
}
