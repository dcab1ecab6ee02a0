/*
 * nw-cg.c - the coarse-grain Needleman-Wunsch wavefront (nw.h): one pthread
 * per server; each takes its strip of every anti-diagonal's blocks
 * (app_strip_begin: equal strips, as the Filaments program's loop call
 * makes), and a spin barrier separates one diagonal from the next.
 */
#include "app.h"
#include "nw.h"

struct cg {
    const struct nw *g;
    int nthreads;
    struct app_barrier barrier;
};

static void diagonals(int t, void *arg)
{
    struct cg *cg = arg;
    const struct nw *g = cg->g;
    struct app_barrier_self self = { 0 };
    for (long d = 0; d < 2 * g->nb - 1; ++d) {
        long first = nw_diagonal_begin(g, d), blocks = nw_diagonal_end(g, d) - first;
        nw_blocks(g, d, first + app_strip_begin(t, blocks, cg->nthreads),
                  first + app_strip_begin(t + 1, blocks, cg->nthreads));
        app_barrier_wait(&cg->barrier, &self, NULL, NULL);
    }
}

void nw_cg(void *problem, int servers)
{
    struct cg *cg = app_alloc(1, sizeof *cg);
    cg->g = problem;
    cg->nthreads = servers;
    app_barrier_init(&cg->barrier, servers);
    app_threads_run(servers, diagonals, cg);
    app_free(cg);
}
