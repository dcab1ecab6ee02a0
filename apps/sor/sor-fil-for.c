/*
 * sor-fil-for.c - the red/black SOR with the parallel loop call
 * (--impl=fil-for; f_parallel_for(3)), as an OpenMP user writes it: the
 * time-step loop a plain C loop around two calls per iteration, the red
 * points' rows and then the black points', each statically split into one
 * equal strip per server, the largest change a max reduction over both.
 *
 * A strip's rows are sor_rows(), the sequential program's loop; a maximum
 * is exact in any order, so the grid and maxdiff are bitwise seq's.
 * Beside --impl=fil, the paper's iterative filaments with a continuation.
 */
#include <filaments.h>

#include "app.h"
#include "sor.h"

F_LOOP_REDUCE_2(colour, lo, hi, double, max, struct sor *, s, int, c)
{
    double d = sor_rows(s, lo, hi, c);
    *max = d > *max ? d : *max;
}

void sor_fil_for(void *problem, int servers)
{
    struct sor *s = problem;
    double maxdiff;
    app_check_f(f_initialize(servers), "f_initialize");
    do {
        maxdiff = 0.0;
        app_check_f(F_PARALLEL_REDUCE(colour, 1, s->n + 1, F_MAX, &maxdiff, s, SOR_RED),
                    "f_parallel_reduce");
        app_check_f(F_PARALLEL_REDUCE(colour, 1, s->n + 1, F_MAX, &maxdiff, s, SOR_BLACK),
                    "f_parallel_reduce");
    } while (!sor_end_iteration(s, maxdiff));
    f_finalize();
}
