/*
 * fft-cg.c - the coarse-grain 2-D FFT [paper §3.4]: "we simply divided the
 * work into equal-size parts".  One pthread per server transforms a strip
 * of rows, waits at a spin barrier for the others, then transforms the
 * same-numbered strip of columns with its own scratch vector.
 */
#include "app.h"
#include "fft.h"

struct cg {
    const struct fft *f;
    int nthreads;
    struct app_barrier barrier;
};

static void part(int t, void *arg)
{
    struct cg *cg = arg;
    const struct fft *f = cg->f;
    long first = app_strip_begin(t, f->n, cg->nthreads);
    long end = app_strip_begin(t + 1, f->n, cg->nthreads);
    struct cplx *scratch = app_alloc((size_t)f->n, sizeof *scratch);
    struct app_barrier_self self = { 0 };
    for (long i = first; i < end; ++i)
        fft_row(f, i);
    app_barrier_wait(&cg->barrier, &self, NULL, NULL);
    for (long j = first; j < end; ++j)
        fft_column(f, j, scratch);
    app_free(scratch);
}

void fft_cg(void *problem, int servers)
{
    struct cg *cg = app_alloc(1, sizeof *cg);
    cg->f = problem;
    cg->nthreads = servers;
    app_barrier_init(&cg->barrier, servers);
    app_threads_run(servers, part, cg);
    app_free(cg);
}
