/*
 * blu-omp.c - the blocked LU with OpenMP, as Rodinia's lud writes it
 * [Che]: in the sequential loop over the steps, the diagonal block by the
 * one thread, then a `parallel for` over the perimeter's pairs of blocks
 * and one over the interior's blocks, statically scheduled, so a team
 * starts and ends per phase.  A peer for the benchmarks
 * (doc/benchmarks.md, "Peers").
 */
#include "blu.h"

void blu_omp(void *problem, int servers)
{
    const struct blu *m = problem;
    for (long kk = 0; kk < m->nb; ++kk) {
        long rest = blu_rest(m, kk);
        blu_diagonal(m, kk);
#pragma omp parallel for num_threads(servers) schedule(static)
        for (long t = 0; t < rest; ++t)
            blu_perimeter(m, kk, t, t + 1);
#pragma omp parallel for num_threads(servers) schedule(static)
        for (long t = 0; t < rest * rest; ++t)
            blu_interior(m, kk, t, t + 1);
    }
}
