/*
 * floorplan-omp.c - the floorplan with OpenMP tasks, as BOTS writes it
 * [Duran], a peer for the benchmarks (doc/benchmarks.md, "Peers"): a task
 * per move (floorplan_moves), each copying its parent's board into its own frame,
 * a taskwait, and the least of the children's areas; BOTS's manual
 * cut-off: from cell app_peer_depth(FLOORPLAN_PEER_LEVELS, servers) on,
 * the sequential search (floorplan_expand), no tasks.  The best area so
 * far is the sequential search's C11 atomic.  The team is started and
 * ended inside the timed run, as the Filaments program starts and ends its
 * servers.
 */
#include <limits.h>

#include <omp.h>

#include "app.h"
#include "floorplan.h"

static long expand(const struct floorplan *p, const struct floorplan_state *s, long k,
                   atomic_long *best, long cutoff)
{
    if (k + 1 >= cutoff || k == p->n - 1)
        return floorplan_expand(p, s, k, best);
    long move[FLOORPLAN_CHOICES], area[FLOORPLAN_CHOICES];
    int n = floorplan_moves(p, s, k + 1, best, move);
    /* Made from the last move back: libgomp's taskwait runs the waiting
     * task's children newest first, so the smallest box runs first, as in
     * the sequential search (in order, 14 cells took 2.5 times as long at
     * 1 thread; 2026-12-02). */
    for (int m = n - 1; m >= 0; --m) {
#pragma omp task shared(move, area) firstprivate(p, s, k, m, best, cutoff)
        {
            struct floorplan_state child;
            floorplan_put(p, s, k + 1, move[m], &child);
            area[m] = expand(p, &child, k + 1, best, cutoff);
        }
    }
#pragma omp taskwait
    long least = LONG_MAX;
    for (int m = 0; m < n; ++m)
        if (area[m] < least)
            least = area[m];
    return least;
}

void floorplan_omp(void *problem, int servers)
{
    struct floorplan *p = problem;
    atomic_long best = LONG_MAX;
    long cutoff = app_peer_depth(FLOORPLAN_PEER_LEVELS, servers);
#pragma omp parallel num_threads(servers)
#pragma omp single
    p->area = expand(p, &floorplan_corner, -1, &best, cutoff);
}
