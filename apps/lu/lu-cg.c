/*
 * lu-cg.c - the coarse-grain LU decomposition: one pthread per server,
 * each updating its rows (dealt cyclically, as the Filaments program
 * does), and one spin barrier per step, where the last thread to arrive
 * runs the next step's sequential part (lu_pivot) before it releases the
 * others.  The main thread does step 0's before starting the threads.
 */
#include "app.h"
#include "lu.h"

struct cg {
    struct lu *f;
    int nthreads;
    struct app_barrier barrier;
};

/* At the barrier, alone. */
static void next_step(void *arg)
{
    struct lu *f = arg;
    if (f->k + 1 < f->n - 1)
        lu_pivot(f, f->k + 1);
}

static void rows(int t, void *arg)
{
    struct cg *cg = arg;
    struct lu *f = cg->f;
    struct app_barrier_self self = { 0 };
    for (long k = 0; k < f->n - 1; ++k) {
        long p = f->pivot;
        for (long i = t; i < f->n; i += cg->nthreads)
            if (i != k)
                lu_row(f, i, k, p);
        app_barrier_wait(&cg->barrier, &self, next_step, f);
    }
}

void lu_cg(void *problem, int servers)
{
    struct lu *f = problem;
    if (f->n < 2)
        return;
    struct cg *cg = app_alloc(1, sizeof *cg);
    cg->f = f;
    cg->nthreads = servers;
    app_barrier_init(&cg->barrier, servers);
    lu_pivot(f, 0);
    app_threads_run(servers, rows, cg);
    app_free(cg);
}
