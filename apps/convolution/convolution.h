/*
 * convolution.h - adjoint convolution, the paper's first load-imbalanced
 * application without data locality [paper §3.4].
 *
 * The classic adjoint convolution of the loop-scheduling benchmarks
 * (Polychronopoulos and Kuck's guided self-scheduling; Tzen and Ni), which
 * Lowenthal's Filaments programs follow:
 *
 *     DO I = 1, M
 *       DO K = I, M
 *         A(I) = A(I) + X * B(K) * C(K - I + 1)
 *
 * here 0-based: a[i] = sum over k = i .. m-1 of x * b[k] * c[k - i].  The
 * output point i is a sum of m - i products, so the work per point falls
 * linearly from m (point 0) to 1 (point m-1): a triangle.  Contiguous
 * blocks of points are badly unbalanced (with two blocks the first has
 * three quarters of the work); a cyclic deal of the points is nearly
 * balanced; random placement, as the Filaments program does, balances in
 * the mean.  This is the mirror image of c[k] = sum_{i<=k} a[i] b[k-i],
 * whose work grows with k.
 *
 * Every program computes every point with conv_point(), the same products
 * summed in the same order (k increasing, from 0.0), so all results are
 * bitwise identical.
 */
#ifndef CONVOLUTION_H
#define CONVOLUTION_H

struct convolution {
    long m;     /* the points */
    double x;   /* the scalar */
    double *b;  /* m inputs */
    double *c;  /* m inputs */
    double *a;  /* m outputs */
};

/* a[i] = sum_{k=i}^{m-1} (x * b[k]) * c[k - i], k increasing. */
static inline double conv_sum(double x, const double *b, const double *c, long m, long i)
{
    double sum = 0.0;
    for (long k = i; k < m; ++k)
        sum += x * b[k] * c[k - i];
    return sum;
}

static inline void conv_point(const struct convolution *v, long i)
{
    v->a[i] = conv_sum(v->x, v->b, v->c, v->m, i);
}

/* The programs: run(problem, servers), as struct app_impl wants. */
void conv_seq(void *problem, int servers);
void conv_cg(void *problem, int servers);
void conv_cg_cyclic(void *problem, int servers);
void conv_fil(void *problem, int servers);
void conv_fil_any(void *problem, int servers);

#endif /* CONVOLUTION_H */
