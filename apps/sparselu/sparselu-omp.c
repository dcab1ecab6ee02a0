/*
 * sparselu-omp.c - the blocked sparse LU with OpenMP tasks, as BOTS writes
 * it [Duran], a peer for the benchmarks (doc/benchmarks.md, "Peers"): one
 * thread of the team (`omp single`) runs the loop nest and makes a task per
 * block update, `omp taskwait` at the end of each phase; the other threads
 * take the tasks.  The tasks are made in a function the loop calls, an
 * orphaned `omp task`: it binds to the task that runs the loop, as the
 * task of BOTS's loop body does.  The team is started and ended inside the
 * timed run, as the Filaments program starts and ends its servers.
 */
#include <omp.h>

#include "app.h"
#include "sparselu.h"

static void spawn(struct sparselu *m, long kk, long ii, long jj)
{
#pragma omp task firstprivate(m, kk, ii, jj)
    sparselu_update(m, kk, ii, jj);
}

static void wait(void)
{
#pragma omp taskwait
}

void sparselu_omp(void *problem, int servers)
{
#pragma omp parallel num_threads(servers)
#pragma omp single
    sparselu_factor(problem, spawn, wait);
}
