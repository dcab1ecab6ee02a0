/*
 * multigrid-cg.c - the coarse-grain V cycles [paper §3.4]: one pthread per
 * server, each doing every step of the cycle on its strip of rows of the
 * step's level (app_strip_begin over the level's interior rows, the same
 * strips as the Filaments program), with a spin barrier after each step.
 * Each thread keeps the largest correction it added to level 0 in the
 * cycle; the last thread to arrive at the cycle's last barrier combines
 * them (padded slots) and counts the cycle (mg_end_cycle) before it
 * releases the others.  After the cycles each thread finds the largest
 * residual of its strip of level 0, and the main thread combines those.
 */
#include "app.h"
#include "multigrid.h"

struct cg {
    struct multigrid *g;
    int nthreads;
    int done;               /* written by the serial section */
    struct app_slot *slot;  /* each thread's largest correction, then residual */
    struct app_barrier barrier;
};

/* At the cycle's last barrier, alone. */
static void end_cycle(void *arg)
{
    struct cg *cg = arg;
    double correction = 0.0;
    for (int t = 0; t < cg->nthreads; ++t)
        if (cg->slot[t].v > correction)
            correction = cg->slot[t].v;
    cg->done = mg_end_cycle(cg->g, correction);
}

/* Thread t's strip of the interior rows 1 .. n-1 of a level with n intervals. */
static long strip_first(int t, long n, int nthreads)
{
    return 1 + app_strip_begin(t, n - 1, nthreads);
}

static void strip(int t, void *arg)
{
    struct cg *cg = arg;
    struct multigrid *g = cg->g;
    int nt = cg->nthreads;
    struct app_barrier_self self = { 0 };
    do {
        double correction = 0.0;
        for (int s = 0; s < g->nsteps; ++s) {
            const struct mg_step *st = &g->step[s];
            const struct mg_level *lv = &g->level[st->level];
            double e = mg_step_rows(st, lv, strip_first(t, lv->n, nt),
                                    strip_first(t + 1, lv->n, nt));
            if (st->level == 0 && e > correction)
                correction = e;
            if (s < g->nsteps - 1) {
                app_barrier_wait(&cg->barrier, &self, NULL, NULL);
            } else {
                cg->slot[t].v = correction;
                app_barrier_wait(&cg->barrier, &self, end_cycle, cg);
            }
        }
    } while (!cg->done);
    cg->slot[t].v = mg_residual_max(&g->level[0], strip_first(t, g->n, nt),
                                    strip_first(t + 1, g->n, nt));
}

void multigrid_cg(void *problem, int servers)
{
    struct multigrid *g = problem;
    struct cg *cg = app_alloc(1, sizeof *cg);
    cg->g = g;
    cg->nthreads = servers;
    cg->slot = app_alloc((size_t)servers, sizeof *cg->slot);
    app_barrier_init(&cg->barrier, servers);
    app_threads_run(servers, strip, cg);
    g->residual = 0.0;
    for (int t = 0; t < servers; ++t)
        if (cg->slot[t].v > g->residual)
            g->residual = cg->slot[t].v;
    app_free(cg->slot);
    app_free(cg);
}
