/*
 * sor-cg.c - the coarse-grain red/black SOR: one pthread per server, each
 * updating a strip of rows (the same strips as the Filaments program), two
 * spin barriers per iteration: after the red points, and after the black
 * ones, where the last thread to arrive combines the padded per-thread
 * maxdiff slots and counts the iteration (sor_end_iteration).
 */
#include "app.h"
#include "sor.h"

struct cg {
    struct sor *s;
    int nthreads;
    int done;                /* written by the serial section */
    struct app_slot *slot;   /* each thread's maxdiff */
    struct app_barrier barrier;
};

/* At the second barrier, alone. */
static void end_iteration(void *arg)
{
    struct cg *cg = arg;
    double maxdiff = app_slots_max(cg->slot, cg->nthreads);
    cg->done = sor_end_iteration(cg->s, maxdiff);
}

static void strip(int t, void *arg)
{
    struct cg *cg = arg;
    struct sor *s = cg->s;
    long first = 1 + app_strip_begin(t, s->n, cg->nthreads);
    long end = 1 + app_strip_begin(t + 1, s->n, cg->nthreads);
    struct app_barrier_self self = { 0 };
    do {
        double red = sor_rows(s, first, end, SOR_RED);
        app_barrier_wait(&cg->barrier, &self, NULL, NULL);
        double black = sor_rows(s, first, end, SOR_BLACK);
        cg->slot[t].v = black > red ? black : red;
        app_barrier_wait(&cg->barrier, &self, end_iteration, cg);
    } while (!cg->done);
}

void sor_cg(void *problem, int servers)
{
    struct cg *cg = app_alloc(1, sizeof *cg);
    cg->s = problem;
    cg->nthreads = servers;
    cg->slot = app_alloc((size_t)servers, sizeof *cg->slot);
    app_barrier_init(&cg->barrier, servers);
    app_threads_run(servers, strip, cg);
    app_free(cg->slot);
    app_free(cg);
}
