/*
 * blu-cg.c - the coarse-grain blocked LU (blu.h): one pthread per server;
 * each takes its strip of every perimeter and interior loop (equal
 * strips, as the Filaments program's loop calls make), and two spin
 * barriers per step separate the phases.  The last thread to arrive at the
 * first factors the step's diagonal block before it releases the others.
 */
#include "app.h"
#include "blu.h"

struct cg {
    const struct blu *m;
    int nthreads;
    long step; /* the next diagonal block: written by the serial section */
    struct app_barrier barrier;
};

/* At the barrier, alone. */
static void diagonal(void *arg)
{
    struct cg *cg = arg;
    blu_diagonal(cg->m, cg->step++);
}

static void steps(int t, void *arg)
{
    struct cg *cg = arg;
    const struct blu *m = cg->m;
    int p = cg->nthreads;
    struct app_barrier_self self = { 0 };
    for (long kk = 0; kk < m->nb; ++kk) {
        long rest = blu_rest(m, kk), inner = rest * rest;
        app_barrier_wait(&cg->barrier, &self, diagonal, cg);
        blu_perimeter(m, kk, app_strip_begin(t, rest, p), app_strip_begin(t + 1, rest, p));
        app_barrier_wait(&cg->barrier, &self, NULL, NULL);
        blu_interior(m, kk, app_strip_begin(t, inner, p), app_strip_begin(t + 1, inner, p));
    }
}

void blu_cg(void *problem, int servers)
{
    struct cg *cg = app_alloc(1, sizeof *cg);
    cg->m = problem;
    cg->nthreads = servers;
    app_barrier_init(&cg->barrier, servers);
    app_threads_run(servers, steps, cg);
    app_free(cg);
}
