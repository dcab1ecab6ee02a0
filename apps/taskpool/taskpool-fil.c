/*
 * taskpool-fil.c - the synthetic algorithm with fork/join filaments
 * [paper §2.3, §4.5; Korch §7.2]: a task is a filament, creating a task is
 * f_fork, and the library's per-server deques, stealing and pruning are the
 * task pool.  The main thread forks the k initial tasks A(k-1) .. A(0) as
 * roots, in that order; f_parallel() joins them.  Pruning is the library's
 * default (F_PRUNE_AUTO, or FILAMENTS_PRUNE).
 *
 * --impl=fil: untyped forks; a task's children write their counts into the
 * task's frame, and the task joins them after its last piece of work.
 *
 * --impl=fil-typed: value-returning forks (f_fork_long, f_sync_long), the
 * task count coming back as the call's result, as in the sequential
 * recursion; the work results go into a padded slot per server, summed
 * after the run (a sum modulo 2^64 does not depend on the order).
 *
 * No fork needs a fallback or a check (f_fork(3)): in a full deque the
 * child runs at once.
 */
#include <filaments.h>

#include "app.h"
#include "taskpool.h"

static void task(long i, long f, void *out)
{
    struct taskpool_count *c = out, left, right;
    c->tasks = 1;
    c->work = taskpool_first(i, f);
    if (i <= 0)
        return;
    f_fork(task, i - 2, f, &left);
    uint64_t x = taskpool_middle(c->work, f);
    f_fork(task, i - 1, f, &right);
    c->work = taskpool_last(x, f);
    f_join();
    c->tasks += left.tasks + right.tasks;
    c->work += left.work + right.work;
}

/* A server's share of the work results, alone on its cache line. */
struct slot {
    _Alignas(APP_CACHE_LINE) uint64_t work;
};

static long task_typed(f_frame fr, long i, long f, void *slots)
{
    struct slot *s = slots;
    uint64_t x = taskpool_first(i, f);
    if (i <= 0) {
        s[f_my_server()].work += x;
        return 1;
    }
    f_fork_long(&fr, task_typed, i - 2, f, slots);
    x = taskpool_middle(x, f);
    f_fork_long(&fr, task_typed, i - 1, f, slots);
    x = taskpool_last(x, f);
    s[f_my_server()].work += x;
    long right = f_sync_long(&fr, task_typed);
    return 1 + f_sync_long(&fr, task_typed) + right;
}

struct root {
    struct slot *slots;
    long tasks;
};

/* An initial task of fil-typed: a root cannot return a value, so this
 * filament is A(i) itself called with a frame for its count. */
static void root_typed(long i, long f, void *arg)
{
    struct root *r = arg;
    r->tasks = task_typed(f_frame_here(), i, f, r->slots);
}

static void run(struct taskpool *tp, int servers, int typed)
{
    long k = tp->k;
    struct taskpool_count *counts = app_alloc((size_t)k, sizeof *counts);
    struct root *roots = app_alloc((size_t)k, sizeof *roots);
    app_check_f(f_initialize(servers), "f_initialize");
    struct slot *slots = app_alloc((size_t)servers, sizeof *slots);
    for (long i = k - 1; i >= 0; --i) {
        roots[i].slots = slots;
        if (typed)
            app_check_f(f_fork(root_typed, i, tp->f, &roots[i]), "f_fork");
        else
            app_check_f(f_fork(task, i, tp->f, &counts[i]), "f_fork");
    }
    app_check_f(f_parallel(), "f_parallel");
    f_finalize();
    uint64_t tasks = 0, work = 0;
    for (long i = 0; i < k; ++i) {
        tasks += typed ? (uint64_t)roots[i].tasks : counts[i].tasks;
        work += counts[i].work;
    }
    for (int s = 0; s < servers; ++s)
        work += slots[s].work;
    tp->result[0] = tasks;
    tp->result[1] = work;
    app_free(slots);
    app_free(roots);
    app_free(counts);
}

void taskpool_fil(void *problem, int servers)
{
    run(problem, servers, 0);
}

void taskpool_fil_typed(void *problem, int servers)
{
    run(problem, servers, 1);
}
