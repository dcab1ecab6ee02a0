/*
 * jacobi-fil-for.c - the Jacobi iteration with the parallel loop call
 * (--impl=fil-for; f_parallel_for(3)), as an OpenMP user writes it: the
 * time-step loop a plain C loop around one call per iteration, over the
 * rows, statically split into one equal strip per server, the largest
 * change a max reduction.
 *
 * A strip's rows are jacobi_rows(), the sequential program's loop, so
 * the grid's pointers and width stay in registers across the strip and
 * its largest change in one, as in OpenMP's outlined loop; the partials
 * are combined on the main thread in strip order, and a maximum is exact
 * in any order anyway: the grids and maxdiff are bitwise seq's.  Beside
 * --impl=fil (an iterative filament per point), which the paper's table
 * compares, this is the shape that issue 57 measures against `omp for`.
 */
#include <filaments.h>

#include "app.h"
#include "jacobi.h"

F_LOOP_REDUCE_1(sweep, lo, hi, double, max, const struct jacobi *, g)
{
    double d = jacobi_rows(g->old, g->new, g->w, g->n, lo, hi);
    *max = d > *max ? d : *max;
}

void jacobi_fil_for(void *problem, int servers)
{
    struct jacobi *g = problem;
    double maxdiff;
    app_check_f(f_initialize(servers), "f_initialize");
    do {
        maxdiff = 0.0;
        app_check_f(F_PARALLEL_REDUCE(sweep, 1, g->n + 1, F_MAX, &maxdiff, g), "f_parallel_reduce");
    } while (!jacobi_end_iteration(g, maxdiff));
    f_finalize();
}
