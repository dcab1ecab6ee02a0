/*
 * nw-fil.c - the Filaments Needleman-Wunsch wavefront (nw.h): a parallel
 * loop over the blocks of each anti-diagonal, from the main thread, as
 * OpenMP's `parallel for` per diagonal (f_parallel_for(3)).  Each call
 * splits the diagonal into one strip per server, statically, and returns
 * when every strip is done: the join between diagonals.
 */
#include <filaments.h>

#include "app.h"
#include "nw.h"

F_LOOP_2(diagonal, lo, hi, const struct nw *, g, long, d)
{
    nw_blocks(g, d, lo, hi);
}

void nw_fil(void *problem, int servers)
{
    const struct nw *g = problem;
    app_check_f(f_initialize(servers), "f_initialize");
    for (long d = 0; d < 2 * g->nb - 1; ++d)
        app_check_f(F_PARALLEL_FOR(diagonal, nw_diagonal_begin(g, d), nw_diagonal_end(g, d), g, d),
                    "f_parallel_for");
    f_finalize();
}
