/*
 * fft-seq.c - the sequential 2-D FFT: no parallel constructs [paper §3].
 */
#include "app.h"
#include "fft.h"

void fft_seq(void *problem, int servers)
{
    const struct fft *f = problem;
    struct cplx *scratch = app_alloc((size_t)f->n, sizeof *scratch);
    for (long i = 0; i < f->n; ++i)
        fft_row(f, i);
    for (long j = 0; j < f->n; ++j)
        fft_column(f, j, scratch);
    app_free(scratch);
}
