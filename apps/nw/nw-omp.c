/*
 * nw-omp.c - the Needleman-Wunsch wavefront with OpenMP, as Rodinia's nw
 * writes it [Che]: a `parallel for` over the blocks of each anti-diagonal,
 * statically scheduled, inside the sequential loop over the diagonals, so
 * a team starts and ends per diagonal.  A peer for the benchmarks
 * (doc/benchmarks.md, "Peers").
 */
#include "nw.h"

void nw_omp(void *problem, int servers)
{
    const struct nw *g = problem;
    for (long d = 0; d < 2 * g->nb - 1; ++d) {
        long end = nw_diagonal_end(g, d);
#pragma omp parallel for num_threads(servers) schedule(static)
        for (long bi = nw_diagonal_begin(g, d); bi < end; ++bi)
            nw_blocks(g, d, bi, bi + 1);
    }
}
