/*
 * blu-fil.c - the Filaments blocked LU (blu.h): in the sequential loop over
 * the steps, the diagonal block on the main thread, then a parallel loop
 * over the perimeter and one over the interior (f_parallel_for(3)), as
 * OpenMP's `parallel for` per phase.  Each call splits its loop into one
 * strip per server, statically, and returns when every strip is done.
 */
#include <filaments.h>

#include "app.h"
#include "blu.h"

F_LOOP_2(perimeter, lo, hi, const struct blu *, m, long, kk)
{
    blu_perimeter(m, kk, lo, hi);
}

F_LOOP_2(interior, lo, hi, const struct blu *, m, long, kk)
{
    blu_interior(m, kk, lo, hi);
}

void blu_fil(void *problem, int servers)
{
    const struct blu *m = problem;
    app_check_f(f_initialize(servers), "f_initialize");
    for (long kk = 0; kk < m->nb; ++kk) {
        long rest = blu_rest(m, kk);
        blu_diagonal(m, kk);
        app_check_f(F_PARALLEL_FOR(perimeter, 0, rest, m, kk), "f_parallel_for");
        app_check_f(F_PARALLEL_FOR(interior, 0, rest * rest, m, kk), "f_parallel_for");
    }
    f_finalize();
}
