/*
 * fft-common.c - the 2-D FFT's setup, check and main [paper §3.4].
 *
 * The input holds pseudo-random complex numbers, real and imaginary parts
 * in [-1, 1), from a fixed seed; --size must be a power of two (else exit
 * status 2, as for any bad option).  The default check regenerates the
 * input from the seed (no copy is kept) and compares, with the tolerance
 * tol = 8 (n^2 + log2 n + 1) DBL_EPSILON, a bound on the rounding of an
 * FFT and of a direct sum of n^2 terms:
 *  - Parseval: sum |X|^2 = n^2 sum |x|^2, within tol n^2 sum |x|^2, which a
 *    row or column transformed twice or never breaks;
 *  - a sample of outputs (fixed seed, and X[0][0]) against the direct DFT,
 *    X[u][v] = sum over r, c of x[r][c] exp(-2 pi i (ur + vc) / n), within
 *    tol sum (|Re x| + |Im x|);
 *  - every output is finite.
 * --verify compares the whole array with the sequential program's, bitwise.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "app.h"
#include "fft.h"

#define SAMPLES 8
#define INPUT_SEED 1

static size_t bytes(long size)
{
    size_t b = app_bytes_add(0, (size_t)size, (size_t)size * sizeof(struct cplx));
    b = b == 0 ? 0 : app_bytes_add(b, (size_t)size, sizeof(struct cplx) / 2 + sizeof(long));
    return b;
}

static int log2_of(long n)
{
    int k = 0;
    while ((1L << k) < n)
        ++k;
    return k;
}

static void *create(const struct app_args *args)
{
    long n = args->size;
    if ((n & (n - 1)) != 0) {
        /* A bad option, reported as app.c reports one. */
        fflush(stdout);
        fprintf(stderr, "fft: --size: expected a power of two, got '%ld'\n", n);
        exit(2);
    }
    struct fft *f = app_alloc(1, sizeof *f);
    f->n = n;
    f->x = app_alloc((size_t)(n * n), sizeof *f->x);
    f->w = app_alloc((size_t)(n / 2), sizeof *f->w);
    f->rev = app_alloc((size_t)n, sizeof *f->rev);
    int bits = log2_of(n);
    for (long k = 0; k < n; ++k) {
        long r = 0;
        for (int b = 0; b < bits; ++b)
            r |= ((k >> b) & 1) << (bits - 1 - b);
        f->rev[k] = r;
    }
    const double pi = 3.14159265358979323846;
    for (long k = 0; k < n / 2; ++k) {
        double angle = 2.0 * pi * (double)k / (double)n;
        f->w[k] = (struct cplx){ cos(angle), -sin(angle) };
    }
    uint64_t seed = INPUT_SEED;
    for (long k = 0; k < n * n; ++k) {
        f->x[k].re = 2.0 * app_rand_double(&seed) - 1.0;
        f->x[k].im = 2.0 * app_rand_double(&seed) - 1.0;
    }
    return f;
}

/* exp(-2 pi i k / n) for any k >= 0, from the twiddle table: w[k + n/2] = -w[k]. */
static struct cplx root(const struct fft *f, long k)
{
    k %= f->n;
    if (k == 0)
        return (struct cplx){ 1.0, 0.0 };  /* also for n = 1, whose table is empty */
    if (k < f->n / 2)
        return f->w[k];
    struct cplx w = f->w[k - f->n / 2];
    return (struct cplx){ -w.re, -w.im };
}

static int check(void *problem)
{
    const struct fft *f = problem;
    long n = f->n;
    long u[SAMPLES] = { 0 }, v[SAMPLES] = { 0 };
    struct cplx direct[SAMPLES] = { { 0.0, 0.0 } };
    uint64_t pick = 3;
    for (int s = 1; s < SAMPLES; ++s) {
        u[s] = (long)(app_rand(&pick) % (uint64_t)n);
        v[s] = (long)(app_rand(&pick) % (uint64_t)n);
    }

    /* The input again, in the order it was made, summed as it goes. */
    double in_sq = 0.0, in_abs = 0.0;
    uint64_t seed = INPUT_SEED;
    for (long r = 0; r < n; ++r) {
        for (long c = 0; c < n; ++c) {
            struct cplx x;
            x.re = 2.0 * app_rand_double(&seed) - 1.0;
            x.im = 2.0 * app_rand_double(&seed) - 1.0;
            in_sq += x.re * x.re + x.im * x.im;
            in_abs += fabs(x.re) + fabs(x.im);
            for (int s = 0; s < SAMPLES; ++s) {
                struct cplx w = root(f, u[s] * r + v[s] * c);
                direct[s].re += w.re * x.re - w.im * x.im;
                direct[s].im += w.re * x.im + w.im * x.re;
            }
        }
    }

    double tol = 8.0 * ((double)n * (double)n + log2_of(n) + 1) * DBL_EPSILON;
    double out_sq = 0.0;
    for (long k = 0; k < n * n; ++k) {
        struct cplx y = f->x[k];
        if (!isfinite(y.re) || !isfinite(y.im)) {
            fprintf(stderr, "fft: X[%ld][%ld] is %g%+gi\n", k / n, k % n, y.re, y.im);
            return 0;
        }
        out_sq += y.re * y.re + y.im * y.im;
    }
    double want = (double)n * (double)n * in_sq;
    if (!(fabs(out_sq - want) <= tol * want)) {
        fprintf(stderr, "fft: sum |X|^2 is %.17g, n^2 sum |x|^2 is %.17g (tolerance %g)\n",
                out_sq, want, tol * want);
        return 0;
    }
    for (int s = 0; s < SAMPLES; ++s) {
        struct cplx y = f->x[u[s] * n + v[s]];
        if (!(hypot(y.re - direct[s].re, y.im - direct[s].im) <= tol * in_abs)) {
            fprintf(stderr, "fft: X[%ld][%ld] is %.17g%+.17gi, the direct DFT %.17g%+.17gi "
                    "(tolerance %g)\n", u[s], v[s], y.re, y.im, direct[s].re, direct[s].im,
                    tol * in_abs);
            return 0;
        }
    }
    return 1;
}

static const void *result(void *problem, size_t *nbytes)
{
    const struct fft *f = problem;
    *nbytes = (size_t)(f->n * f->n) * sizeof *f->x;
    return f->x;
}

static void destroy(void *problem)
{
    struct fft *f = problem;
    app_free(f->x);
    app_free(f->w);
    app_free(f->rev);
    app_free(f);
}

static const struct app_impl impls[] = {
    { "seq", fft_seq, 0, "sequential: no parallel constructs" },
    { "cg", fft_cg, 1, "coarse grain: one pthread per server, strips of rows, then of columns" },
    { "fil", fft_fil, 1, "Filaments: an RTC filament per row, run, then one per column, run" },
    { NULL, NULL, 0, NULL },
};

static const struct app fft = {
    .name = "fft",
    .impls = impls,
    .size_min = 1,
    .size_max = 65536,
    .size_default = 2048,
    .bytes = bytes,
    .create = create,
    .check = check,
    .result = result,
    .destroy = destroy,
};

int main(int argc, char **argv)
{
    return app_main(&fft, argc, argv);
}
