/*
 * matmul-cg.c - the coarse-grain matrix multiplication [paper §3.1]: one
 * pthread per server, each computing the inner products of a strip of rows
 * of c (the same strips as the Filaments program).
 */
#include "app.h"
#include "matmul.h"

struct cg {
    const struct matmul *m;
    int nthreads;
};

static void strip(int t, void *arg)
{
    const struct cg *cg = arg;
    const struct matmul *m = cg->m;
    matmul_rows(m, app_strip_begin(t, m->n, cg->nthreads),
                app_strip_begin(t + 1, m->n, cg->nthreads));
}

void matmul_cg(void *problem, int servers)
{
    struct cg cg = { problem, servers };
    app_threads_run(servers, strip, &cg);
}
