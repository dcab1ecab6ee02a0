/*
 * jacobi-cg.c - the coarse-grain Jacobi iteration [paper §3.2]: one pthread
 * per server, each updating a strip of rows (the same strips as the
 * Filaments program) and keeping its largest change in its own padded slot.
 *
 * One spin barrier per iteration (app_barrier_wait): the last thread to
 * arrive combines the slots, counts the iteration and swaps the grids
 * (jacobi_end_iteration) before it releases the others, as the Filaments
 * barrier runs the sequential code.  The combining is done by whichever
 * thread arrives last rather than always by thread 0, which would take a
 * second barrier per iteration.
 */
#include "app.h"
#include "jacobi.h"

struct cg {
    struct jacobi *g;
    int nthreads;
    int done;                /* written by the serial section */
    struct app_slot *slot;   /* each thread's maxdiff */
    struct app_barrier barrier;
};

/* At the barrier, alone. */
static void end_iteration(void *arg)
{
    struct cg *cg = arg;
    double maxdiff = app_slots_max(cg->slot, cg->nthreads);
    cg->done = jacobi_end_iteration(cg->g, maxdiff);
}

static void strip(int t, void *arg)
{
    struct cg *cg = arg;
    struct jacobi *g = cg->g;
    long first = 1 + app_strip_begin(t, g->n, cg->nthreads);
    long end = 1 + app_strip_begin(t + 1, g->n, cg->nthreads);
    struct app_barrier_self self = { 0 };
    do {
        cg->slot[t].v = jacobi_rows(g->old, g->new, g->w, g->n, first, end);
        app_barrier_wait(&cg->barrier, &self, end_iteration, cg);
    } while (!cg->done);
}

void jacobi_cg(void *problem, int servers)
{
    struct cg *cg = app_alloc(1, sizeof *cg);
    cg->g = problem;
    cg->nthreads = servers;
    cg->slot = app_alloc((size_t)servers, sizeof *cg->slot);
    app_barrier_init(&cg->barrier, servers);
    app_threads_run(servers, strip, cg);
    app_free(cg->slot);
    app_free(cg);
}
