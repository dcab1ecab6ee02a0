/*
 * convolution-common.c - adjoint convolution's setup, check and main
 * [paper §3.4].
 *
 * b and c hold pseudo-random numbers in [-1, 1) from fixed seeds; x is
 * 0.75.  The default check is cheap, O(m) besides the samples:
 *  - every point is finite;
 *  - a sample of points (fixed seed, and the first and last points) is
 *    recomputed with conv_sum() and compared bitwise;
 *  - the sum of all points agrees with the same double sum taken the
 *    other way round, sum over d of c[d] * (sum over k >= d of x * b[k]),
 *    within 2 (m + 1) DBL_EPSILON E, where E is that sum with every term in
 *    absolute value (the standard bound on the rounding of both sums), so a
 *    point that was never computed, or computed twice, shows.
 * --verify compares all of a with the sequential program's, bitwise.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "app.h"
#include "convolution.h"

#define SAMPLES 64

static size_t bytes(long size)
{
    return app_bytes_add(0, 3 * (size_t)size, sizeof(double));
}

static void *create(const struct app_args *args)
{
    long m = args->size;
    struct convolution *v = app_alloc(1, sizeof *v);
    v->m = m;
    v->x = 0.75;
    v->b = app_alloc((size_t)m, sizeof *v->b);
    v->c = app_alloc((size_t)m, sizeof *v->c);
    v->a = app_alloc((size_t)m, sizeof *v->a);
    uint64_t sb = 1, sc = 2;
    for (long k = 0; k < m; ++k) {
        v->b[k] = 2.0 * app_rand_double(&sb) - 1.0;
        v->c[k] = 2.0 * app_rand_double(&sc) - 1.0;
    }
    return v;
}

static int check_point(const struct convolution *v, long i)
{
    double want = conv_sum(v->x, v->b, v->c, v->m, i);
    if (memcmp(&want, &v->a[i], sizeof want) != 0) {
        fprintf(stderr, "convolution: a[%ld] is %.17g, its recomputation %.17g\n", i, v->a[i],
                want);
        return 0;
    }
    return 1;
}

static int check(void *problem)
{
    const struct convolution *v = problem;
    long m = v->m;
    double sum = 0.0;
    for (long i = 0; i < m; ++i) {
        if (!isfinite(v->a[i])) {
            fprintf(stderr, "convolution: a[%ld] is %g\n", i, v->a[i]);
            return 0;
        }
        sum += v->a[i];
    }
    if (!check_point(v, 0) || !check_point(v, m - 1))
        return 0;
    uint64_t seed = 3;
    for (int s = 0; s < SAMPLES; ++s)
        if (!check_point(v, (long)(app_rand(&seed) % (uint64_t)m)))
            return 0;

    /* The other way round: suffix sums of x * b, from the end. */
    double want = 0.0, bound = 0.0, suffix = 0.0, suffix_abs = 0.0;
    for (long d = m - 1; d >= 0; --d) {
        suffix += v->x * v->b[d];
        suffix_abs += fabs(v->x * v->b[d]);
        want += v->c[d] * suffix;
        bound += fabs(v->c[d]) * suffix_abs;
    }
    double tol = 2.0 * (double)(m + 1) * DBL_EPSILON * bound;
    if (!(fabs(sum - want) <= tol)) {
        fprintf(stderr, "convolution: the points sum to %.17g, the sum the other way round "
                "is %.17g (tolerance %g)\n", sum, want, tol);
        return 0;
    }
    return 1;
}

static const void *result(void *problem, size_t *nbytes)
{
    const struct convolution *v = problem;
    *nbytes = (size_t)v->m * sizeof *v->a;
    return v->a;
}

static void destroy(void *problem)
{
    struct convolution *v = problem;
    app_free(v->a);
    app_free(v->b);
    app_free(v->c);
    app_free(v);
}

static const struct app_impl impls[] = {
    { "seq", conv_seq, 0, "sequential: no parallel constructs" },
    { "cg", conv_cg, 1, "coarse grain: one pthread per server, a block of points each" },
    { "cg-cyclic", conv_cg_cyclic, 1, "coarse grain: points dealt cyclically to the pthreads" },
    { "fil", conv_fil, 1, "Filaments: one RTC filament per point on a random server" },
    { "fil-any", conv_fil_any, 1, "Filaments: one RTC filament per point, F_ANY" },
    { NULL, NULL, 0, NULL },
};

static const struct app convolution = {
    .name = "convolution",
    .impls = impls,
    .size_min = 1,
    .size_max = 10000000,
    .size_default = 60000,
    .bytes = bytes,
    .create = create,
    .check = check,
    .result = result,
    .destroy = destroy,
};

int main(int argc, char **argv)
{
    return app_main(&convolution, argc, argv);
}
