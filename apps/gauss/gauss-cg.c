/*
 * gauss-cg.c - the coarse-grain Gaussian elimination [paper §3.4]: one
 * pthread per server, columns dealt cyclically (column j to thread
 * j mod p, b's column n too), as the Filaments program places them, so
 * that the shrinking work of later steps stays spread over the threads.
 *
 * Each step k has two spin barriers: after the pivot, which the owner of
 * column k computes while the others wait, and after the elimination, in
 * which each thread eliminates its own columns right of k.  The paper's
 * coarse-grain program needed an extra barrier for the threads holding one
 * column more than others; looping over the steps rather than over a
 * thread's own columns avoids it: every thread crosses both barriers at
 * every step, whether or not it still owns a column right of k.  The
 * price of the cyclic deal shows instead in the loop bounds (the first own
 * column right of k).
 */
#include "app.h"
#include "gauss.h"

struct cg {
    struct gauss *g;
    int nthreads;
    struct app_barrier barrier;
};

static void columns(int t, void *arg)
{
    struct cg *cg = arg;
    struct gauss *g = cg->g;
    long n = g->n, p = cg->nthreads;
    struct app_barrier_self self = { 0 };
    for (long k = 0; k < n; ++k) {
        if (k % p == t)
            gauss_pivot(g, k);
        app_barrier_wait(&cg->barrier, &self, NULL, NULL);
        /* The first column right of k that is ours: k + 1 + ((t - k - 1) mod p). */
        for (long j = k + 1 + ((t - (k + 1) % p) + p) % p; j <= n; j += p)
            gauss_eliminate(g, k, j);
        app_barrier_wait(&cg->barrier, &self, NULL, NULL);
    }
}

void gauss_cg(void *problem, int servers)
{
    struct cg *cg = app_alloc(1, sizeof *cg);
    cg->g = problem;
    cg->nthreads = servers;
    app_barrier_init(&cg->barrier, servers);
    app_threads_run(servers, columns, cg);
    app_free(cg);
    gauss_back_substitute(problem);
}
