/*
 * mandelbrot.h - the Mandelbrot set's escape times, the paper's other
 * load-imbalanced application without data locality [paper §3.4].
 *
 * An n x n image of the region [-2, 0.5] x [-1.25, 1.25] of the complex
 * plane, pixel (i, j) sampled at its centre: row 0 is the top.  A pixel's
 * value is the number of iterations of z <- z^2 + c, from z = 0, until
 * |z| > 2 or `iters` iterations: from 1 (far outside) to `iters` (inside
 * the set).  Pixels inside cost `iters` iterations, pixels far outside one:
 * the work per pixel varies by orders of magnitude, and most of it lies in
 * the middle rows.
 *
 * The region is symmetric about the real axis, and the imaginary parts of
 * rows i and n-1-i are exact negations of each other (mandel_y), so the
 * iteration, whose imaginary part only changes sign with c's, gives rows
 * i and n-1-i bitwise identical counts: the check uses this.  Every program
 * computes every pixel with mandel_pixel(), so all results are bitwise
 * identical.
 */
#ifndef MANDELBROT_H
#define MANDELBROT_H

#include <stdint.h>

#define MANDEL_XMIN (-2.0)
#define MANDEL_HALF 1.25  /* half the region's width and height */

struct mandelbrot {
    long n;            /* pixels per row and per column */
    long iters;        /* the most iterations per pixel */
    int32_t *count;    /* n x n, row-major: the image */
};

/* The centre of column j: XMIN + (2j + 1) * HALF / n. */
static inline double mandel_x(long n, long j)
{
    return MANDEL_XMIN + (double)(2 * j + 1) * MANDEL_HALF / (double)n;
}

/* The centre of row i: (n - 1 - 2i) * HALF / n; rows i and n-1-i negate. */
static inline double mandel_y(long n, long i)
{
    return (double)(n - 1 - 2 * i) * MANDEL_HALF / (double)n;
}

/* Iterations until |z|^2 > 4, at most `iters`. */
static inline int32_t mandel_escape(double cx, double cy, long iters)
{
    double x = 0.0, y = 0.0, x2 = 0.0, y2 = 0.0;
    long k = 0;
    while (k < iters && x2 + y2 <= 4.0) {
        y = 2.0 * x * y + cy;
        x = x2 - y2 + cx;
        x2 = x * x;
        y2 = y * y;
        ++k;
    }
    return (int32_t)k;
}

static inline void mandel_pixel(const struct mandelbrot *m, long i, long j)
{
    m->count[i * m->n + j] = mandel_escape(mandel_x(m->n, j), mandel_y(m->n, i), m->iters);
}

/* The programs: run(problem, servers), as struct app_impl wants. */
void mandel_seq(void *problem, int servers);
void mandel_cg(void *problem, int servers);
void mandel_fil(void *problem, int servers);
void mandel_fil_any(void *problem, int servers);
void mandel_fil_main(void *problem, int servers);
void mandel_fil_for(void *problem, int servers); /* mandelbrot-fil-for.c */

#endif /* MANDELBROT_H */
