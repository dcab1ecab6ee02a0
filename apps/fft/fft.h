/*
 * fft.h - the two-dimensional fast Fourier transform of an n x n complex
 * array, n a power of two [paper §3.4]: a one-dimensional FFT of every row,
 * then of every column, in place.
 *
 * The one-dimensional transform is the iterative radix-2 Cooley-Tukey FFT
 * (decimation in time): the bit-reversal permutation, then log2 n passes of
 * butterflies.  The twiddle factors w[k] = exp(-2 pi i k / n), k < n/2, and
 * the bit-reversal table are computed once, in setup, so that no program
 * calls cos or sin; every program transforms every row and column with
 * fft_row() and fft_column(), the same butterflies in the same order, so
 * all results are bitwise identical.  Complex arithmetic is written out on
 * pairs of doubles: C's _Complex multiply may take a slow path for
 * infinities, and its rounding is the compiler's business.
 *
 * A column is copied into a contiguous scratch vector of n elements (one
 * per thread or server), transformed there and copied back: the
 * butterflies are those of a row, and the column's stride, a power of two,
 * would otherwise map every element onto the same few cache sets.
 */
#ifndef FFT_H
#define FFT_H

struct cplx {
    double re, im;
};

struct fft {
    long n;            /* a power of two */
    struct cplx *x;    /* n x n, row-major: the input, then its transform */
    struct cplx *w;    /* n/2 twiddle factors: w[k] = exp(-2 pi i k / n) */
    long *rev;         /* n: the bit reversal of each index (log2 n bits) */
};

/* The butterflies of a length-n transform of v[0 .. n-1], in place. */
static inline void fft_1d(struct cplx *v, long n, const struct cplx *w, const long *rev)
{
    for (long k = 0; k < n; ++k) {
        long r = rev[k];
        if (k < r) {
            struct cplx t = v[k];
            v[k] = v[r];
            v[r] = t;
        }
    }
    for (long half = 1, step = n / 2; half < n; half *= 2, step /= 2) {
        for (long s = 0; s < n; s += 2 * half) {
            for (long k = 0; k < half; ++k) {
                struct cplx u = v[s + k], x = v[s + k + half], wk = w[k * step];
                struct cplx t = { wk.re * x.re - wk.im * x.im, wk.re * x.im + wk.im * x.re };
                v[s + k] = (struct cplx){ u.re + t.re, u.im + t.im };
                v[s + k + half] = (struct cplx){ u.re - t.re, u.im - t.im };
            }
        }
    }
}

/* Transform row i. */
static inline void fft_row(const struct fft *f, long i)
{
    fft_1d(f->x + i * f->n, f->n, f->w, f->rev);
}

/* Transform column j, by way of `scratch` (n elements, the caller's own). */
static inline void fft_column(const struct fft *f, long j, struct cplx *scratch)
{
    long n = f->n;
    for (long i = 0; i < n; ++i)
        scratch[i] = f->x[i * n + j];
    fft_1d(scratch, n, f->w, f->rev);
    for (long i = 0; i < n; ++i)
        f->x[i * n + j] = scratch[i];
}

/* The programs: run(problem, servers), as struct app_impl wants. */
void fft_seq(void *problem, int servers);
void fft_cg(void *problem, int servers);
void fft_fil(void *problem, int servers);

#endif /* FFT_H */
