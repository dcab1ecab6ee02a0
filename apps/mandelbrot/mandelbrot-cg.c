/*
 * mandelbrot-cg.c - the coarse-grain Mandelbrot image [paper §3.4]: one
 * pthread per server, each computing a strip of rows fixed before the
 * threads start.  The work lies mostly in the middle rows, so strips are
 * balanced only where the partition happens to be symmetric (one or two
 * threads); with three, the middle strip has the most.
 */
#include "app.h"
#include "mandelbrot.h"

struct cg {
    const struct mandelbrot *m;
    int nthreads;
};

static void strip(int t, void *arg)
{
    const struct cg *cg = arg;
    const struct mandelbrot *m = cg->m;
    long end = app_strip_begin(t + 1, m->n, cg->nthreads);
    for (long i = app_strip_begin(t, m->n, cg->nthreads); i < end; ++i)
        for (long j = 0; j < m->n; ++j)
            mandel_pixel(m, i, j);
}

void mandel_cg(void *problem, int servers)
{
    struct cg cg = { problem, servers };
    app_threads_run(servers, strip, &cg);
}
