/*
 * mandelbrot-common.c - the Mandelbrot image's setup, check and main
 * [paper §3.4].
 *
 * The default check is cheap, O(n^2) reads besides the samples: every
 * count lies in [1, iters]; rows i and n-1-i are bitwise identical (the
 * region's symmetry, mandelbrot.h), which a pixel computed twice, never, or
 * for the wrong point breaks unless its mirror image breaks alike; and a
 * sample of pixels (fixed seed) is recomputed with mandel_escape() and
 * compared.  --verify compares the whole image with the sequential
 * program's.
 */
#include <string.h>

#include "app.h"
#include "mandelbrot.h"

#define SAMPLES 1000

static long iters = 1000;

static size_t bytes(long size)
{
    return app_bytes_add(0, (size_t)size, (size_t)size * sizeof(int32_t));
}

static void *create(const struct app_args *args)
{
    struct mandelbrot *m = app_alloc(1, sizeof *m);
    m->n = args->size;
    m->iters = iters;
    m->count = app_alloc((size_t)(m->n * m->n), sizeof *m->count);
    return m;
}

static int check(void *problem)
{
    const struct mandelbrot *m = problem;
    long n = m->n;
    for (long k = 0; k < n * n; ++k) {
        if (m->count[k] < 1 || m->count[k] > m->iters) {
            fprintf(stderr, "mandelbrot: pixel (%ld, %ld) counts %ld iterations, not 1 to %ld\n",
                    k / n, k % n, (long)m->count[k], m->iters);
            return 0;
        }
    }
    for (long i = 0; i < n / 2; ++i) {
        const int32_t *top = m->count + i * n, *bottom = m->count + (n - 1 - i) * n;
        if (memcmp(top, bottom, (size_t)n * sizeof *top) != 0) {
            fprintf(stderr, "mandelbrot: rows %ld and %ld are not mirror images\n", i, n - 1 - i);
            return 0;
        }
    }
    uint64_t seed = 3;
    for (int s = 0; s < SAMPLES; ++s) {
        long i = (long)(app_rand(&seed) % (uint64_t)n), j = (long)(app_rand(&seed) % (uint64_t)n);
        int32_t want = mandel_escape(mandel_x(n, j), mandel_y(n, i), m->iters);
        if (m->count[i * n + j] != want) {
            fprintf(stderr, "mandelbrot: pixel (%ld, %ld) counts %ld, its recomputation %ld\n", i,
                    j, (long)m->count[i * n + j], (long)want);
            return 0;
        }
    }
    return 1;
}

static const void *result(void *problem, size_t *nbytes)
{
    const struct mandelbrot *m = problem;
    *nbytes = (size_t)(m->n * m->n) * sizeof *m->count;
    return m->count;
}

/* The iteration bound, and how many pixels reached it (inside the set). */
static void fields(void *problem, FILE *out)
{
    const struct mandelbrot *m = problem;
    long inside = 0;
    for (long k = 0; k < m->n * m->n; ++k)
        inside += m->count[k] == m->iters;
    fprintf(out, " iters=%ld inside=%ld", m->iters, inside);
}

static void destroy(void *problem)
{
    struct mandelbrot *m = problem;
    app_free(m->count);
    app_free(m);
}

static const struct app_impl impls[] = {
    { "seq", mandel_seq, 0, "sequential: no parallel constructs" },
    { "cg", mandel_cg, 1, "coarse grain: one pthread per server, a strip of rows each" },
    { "fil", mandel_fil, 1,
      "Filaments: one RTC filament per pixel, each server creating a share spread over the image" },
    { "fil-any", mandel_fil_any, 1, "Filaments: the same shares, F_ANY" },
    { "fil-main", mandel_fil_main, 1,
      "Filaments: the main thread creating each pixel on a random server (the paper's)" },
    { "fil-for", mandel_fil_for, 1, "Filaments: a parallel loop over the rows, dynamic, a row" },
    { NULL, NULL, 0, NULL },
};

static const struct app_option options[] = {
    { "iters", APP_LONG, 1, 2147483647, 0, 0, &iters, "the most iterations per pixel" },
    { NULL, 0, 0, 0, 0, 0, NULL, NULL },
};

static const struct app mandelbrot = {
    .name = "mandelbrot",
    .impls = impls,
    .options = options,
    .size_min = 1,
    .size_max = 100000,
    .size_default = 1024,
    .bytes = bytes,
    .create = create,
    .check = check,
    .result = result,
    .fields = fields,
    .destroy = destroy,
};

int main(int argc, char **argv)
{
    return app_main(&mandelbrot, argc, argv);
}
