/*
 * convolution-cg.c - the coarse-grain adjoint convolution [paper §3.4]: one
 * pthread per server working on a fixed partition of the points, decided
 * before the threads start.
 *
 * cg: contiguous blocks (app_strip_begin), the obvious partition and the
 * paper's point: the work per point falls from m to 1, so the first block
 * has the most (with two threads, three quarters of it) and the others
 * wait.  cg-cyclic: point i to thread i mod p, the partition a programmer
 * who knows the triangle would write; nearly balanced, and no more data
 * locality than blocks (every point reads the whole of b and c).
 */
#include "app.h"
#include "convolution.h"

struct cg {
    const struct convolution *v;
    int nthreads;
};

static void block(int t, void *arg)
{
    const struct cg *cg = arg;
    long end = app_strip_begin(t + 1, cg->v->m, cg->nthreads);
    for (long i = app_strip_begin(t, cg->v->m, cg->nthreads); i < end; ++i)
        conv_point(cg->v, i);
}

static void cyclic(int t, void *arg)
{
    const struct cg *cg = arg;
    for (long i = t; i < cg->v->m; i += cg->nthreads)
        conv_point(cg->v, i);
}

void conv_cg(void *problem, int servers)
{
    struct cg cg = { problem, servers };
    app_threads_run(servers, block, &cg);
}

void conv_cg_cyclic(void *problem, int servers)
{
    struct cg cg = { problem, servers };
    app_threads_run(servers, cyclic, &cg);
}
