/*
 * app-tasks.c - the sequential and Filaments drivers of the task loops
 * (app-tasks.h).  The Filaments root is an f_fork from the main thread,
 * joined by f_parallel; no fork needs a fallback or a check (f_fork(3)).
 */
#include <filaments.h>

#include "app.h"
#include "app-tasks.h"

static void call(app_task fn, long i, long j, void *problem)
{
    fn(i, j, problem);
}

static void no_wait(void)
{
}

void app_tasks_seq(app_tasks_body body, void *problem)
{
    static const struct app_tasks calls = { call, no_wait };
    body(problem, &calls);
}

static void fork_task(app_task fn, long i, long j, void *problem)
{
    f_fork(fn, i, j, problem);
}

static void join(void)
{
    f_join();
}

/* The root's arguments, in the main thread's frame until f_parallel returns. */
struct root {
    app_tasks_body body;
    void *problem;
};

static void root(long unused, long unused2, void *arg)
{
    static const struct app_tasks forks = { fork_task, join };
    const struct root *r = arg;
    r->body(r->problem, &forks);
}

void app_tasks_fil(app_tasks_body body, void *problem, int servers, struct app_stats *stats)
{
    struct root r = { body, problem };
    app_check_f(f_initialize(servers), "f_initialize");
    app_check_f(f_fork(root, 0, 0, &r), "f_fork");
    app_check_f(f_parallel(), "f_parallel");
    app_stats_take(stats);
    f_finalize();
}
