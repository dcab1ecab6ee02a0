/*
 * allpairs-omp.c - the all-pairs alignment with OpenMP tasks, as BOTS
 * writes it [Duran], a peer for the benchmarks (doc/benchmarks.md,
 * "Peers"): one thread of the team (`omp single`) runs the double loop and
 * makes a task per pair, then one `omp taskwait`; the other threads take
 * the tasks.  The tasks are made in a function the loop calls, an orphaned
 * `omp task`, which binds to the task that runs the loop.  The team is
 * started and ended inside the timed run, as the Filaments program starts
 * and ends its servers.
 */
#include <omp.h>

#include "app.h"
#include "allpairs.h"

static void spawn(struct allpairs *a, long i, long j)
{
#pragma omp task firstprivate(a, i, j)
    allpairs_pair(a, i, j);
}

static void wait(void)
{
#pragma omp taskwait
}

void allpairs_omp(void *problem, int servers)
{
#pragma omp parallel num_threads(servers)
#pragma omp single
    allpairs_all(problem, spawn, wait);
}
