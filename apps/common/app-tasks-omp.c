/*
 * app-tasks-omp.c - the OpenMP driver of the task loops (app-tasks.h), a
 * peer for the benchmarks (doc/benchmarks.md, "Peers"): the team is
 * started and ended inside the timed run, as the Filaments programs start
 * and end their servers; one thread runs the body, the others take its
 * tasks.  Compiled into each app that uses it, with its OpenMP flags.
 */
#include <omp.h>

#include "app.h"
#include "app-tasks.h"

static void spawn(app_task fn, long i, long j, void *problem)
{
#pragma omp task firstprivate(fn, i, j, problem)
    fn(i, j, problem);
}

static void wait(void)
{
#pragma omp taskwait
}

void app_tasks_omp(void *problem, int servers)
{
    static const struct app_tasks tasks = { spawn, wait };
    app_tasks_body body = ((struct app_tasks_problem *)problem)->body;
#pragma omp parallel num_threads(servers)
#pragma omp single
    body(problem, &tasks);
}
