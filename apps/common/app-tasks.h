/*
 * app-tasks.h - programs written as OpenMP users write tasks, after BOTS
 * [Duran]: one thread runs the app's loops (the body, written once), which
 * start a task per piece of work with spawn and wait for the tasks they
 * started with wait.  Each program says what those are:
 *
 *   app_tasks_seq  a call, and nothing to wait for;
 *   app_tasks_fil  f_fork and f_join [paper §2.3] in one root filament that
 *                  runs the body: many children of one parent, joined at
 *                  once, the shape of issue 46;
 *   app_tasks_omp  `omp task` and `omp taskwait`, the body run by one
 *                  thread of the team (`omp single`), as BOTS writes them.
 *
 * spawn and wait are functions that the body calls, not code in it: an
 * f_fork or f_join in a called function belongs to the calling filament
 * (f_fork(3)), and an orphaned `omp task` or `omp taskwait` binds to the
 * task that runs the body, so the programs are those of loops with the
 * constructs written inline.  The apps' lines give the Filaments
 * program's counters (app-stats.h).
 */
#ifndef APP_TASKS_H
#define APP_TASKS_H

#include "app-stats.h"

struct app; /* app.h */

/* A task: fn(i, j, problem), an f_func of <filaments.h>. */
typedef void (*app_task)(long i, long j, void *problem);

struct app_tasks {
    void (*spawn)(app_task fn, long i, long j, void *problem);
    void (*wait)(void); /* every task the body spawned since the last wait */
};

/* The app's loops, over `problem`. */
typedef void (*app_tasks_body)(void *problem, const struct app_tasks *tasks);

/* The first member of a problem that these programs run, so that they are
 * the impls' run functions themselves (struct app_impl in app.h). */
struct app_tasks_problem {
    app_tasks_body body;    /* set by the app's create() */
    struct app_stats stats; /* app_tasks_fil: the library's counters over the run */
};

void app_tasks_seq(void *problem, int servers); /* app-tasks.c */
void app_tasks_fil(void *problem, int servers);
/* app-tasks-omp.c: compiled into each app with its OpenMP flags. */
void app_tasks_omp(void *problem, int servers);

/* The programs of an app with a sequential, a Filaments and an OpenMP
 * program (these drivers' apps, and floorplan): each one's run and its
 * --help line, in that order; omp's run is NULL where it was not built. */
struct app_tasks_impls {
    void (*run[3])(void *problem, int servers);
    const char *help[3];
};

/* omp's run where configure found OpenMP (-DHAVE_OMP), else NULL: what the
 * app's file, compiled with its flags, knows and app-tasks.c does not. */
#ifdef HAVE_OMP
#define APP_TASKS_OMP(run) (run)
#else
#define APP_TASKS_OMP(run) NULL
#endif

/* app_main() with app's impls "seq", "fil" and "omp" (where built) made
 * from impls: the main() of each such app. */
int app_tasks_main(const struct app *app, const struct app_tasks_impls *impls, int argc,
                   char **argv);

#endif /* APP_TASKS_H */
