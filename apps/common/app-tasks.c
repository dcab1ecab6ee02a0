/*
 * app-tasks.c - the sequential and Filaments drivers of the task loops
 * (app-tasks.h), and the main() of the apps with seq, fil and omp
 * programs.  The Filaments root is an f_fork from the main thread,
 * joined by f_parallel; no fork needs a fallback or a check (f_fork(3)).
 */
#include <filaments.h>

#include "app.h"
#include "app-tasks.h"

static void call(app_task fn, long i, long j, void *problem)
{
    fn(i, j, problem);
}

static void no_wait(void) {}

void app_tasks_seq(void *problem, int servers)
{
    static const struct app_tasks calls = { call, no_wait };
    ((struct app_tasks_problem *)problem)->body(problem, &calls);
}

static void fork_task(app_task fn, long i, long j, void *problem)
{
    f_fork(fn, i, j, problem);
}

static void join(void)
{
    f_join();
}

static void root(long unused, long unused2, void *problem)
{
    static const struct app_tasks forks = { fork_task, join };
    ((struct app_tasks_problem *)problem)->body(problem, &forks);
}

void app_tasks_fil(void *problem, int servers)
{
    app_check_f(f_initialize(servers), "f_initialize");
    app_check_f(f_fork(root, 0, 0, problem), "f_fork");
    app_check_f(f_parallel(), "f_parallel");
    app_stats_take(&((struct app_tasks_problem *)problem)->stats);
    f_finalize();
}

int app_tasks_main(const struct app *app, const struct app_tasks_impls *impls, int argc,
                   char **argv)
{
    static const char *const names[3] = { "seq", "fil", "omp" };
    struct app_impl table[4] = { { NULL, NULL, 0, NULL } };
    int n = 0;
    for (int k = 0; k < 3; ++k)
        if (impls->run[k] != NULL)
            table[n++] = (struct app_impl){ names[k], impls->run[k], k > 0 ? APP_PARALLEL : 0,
                                            impls->help[k] };
    struct app with = *app;
    with.impls = table;
    return app_main(&with, argc, argv);
}
