/*
 * sor-common.c - red/black SOR's setup, check and main [paper §2.2].
 *
 * The boundary and starting values of Jacobi (jacobi-common.c).  The
 * default check is cheap (one pass over the grid): the boundary is
 * unchanged, every value is finite, the iteration count agrees with
 * --iters and --epsilon, and the final grid is consistent with the
 * reported maxdiff.  After the last iteration, a black point's residual
 * (mean of its neighbours - value) is (1/omega - 1) times its last change,
 * and a red point's is (1/omega - 1) times its last change plus the mean
 * change of its black neighbours since, so
 *     |residual| <= maxdiff * |1/omega - 1|          (black)
 *     |residual| <= maxdiff * (|1/omega - 1| + 1)    (red)
 * up to rounding.  --verify compares the grid with the sequential program's
 * bitwise.
 */
#include <float.h>
#include <string.h>

#include "app.h"
#include "sor.h"

static long iters = 100;
static double epsilon = 0.0;
static double omega = 1.5;

static double boundary(long i, long j, long n)
{
    if (i == 0)
        return 1.0;
    if (i == n + 1)
        return 0.0;
    if (j == 0)
        return (double)i / (double)(n + 1);
    return 0.25;
}

int sor_end_iteration(struct sor *s, double maxdiff)
{
    s->maxdiff = maxdiff;
    return ++s->k >= s->iters || maxdiff < s->epsilon;
}

static size_t bytes(long size)
{
    return app_bytes_add(0, (size_t)(size + 2), (size_t)(size + 2) * sizeof(double));
}

static void *create(const struct app_args *args)
{
    long n = args->size, w = n + 2;
    struct sor *s = app_alloc(1, sizeof *s);
    *s = (struct sor){ .n = n, .w = w, .omega = omega, .iters = iters, .epsilon = epsilon };
    s->x = app_alloc((size_t)(w * w), sizeof *s->x);
    for (long i = 0; i < w; ++i)
        for (long j = 0; j < w; ++j)
            if (i == 0 || j == 0 || i == n + 1 || j == n + 1)
                s->x[i * w + j] = boundary(i, j, n);
    return s;
}

static int check(void *problem)
{
    const struct sor *s = problem;
    long n = s->n, w = s->w;
    for (long i = 0; i < w; ++i) {
        for (long j = 0; j < w; ++j) {
            double v = s->x[i * w + j], b = boundary(i, j, n);
            if ((i == 0 || j == 0 || i == n + 1 || j == n + 1) && memcmp(&v, &b, sizeof v) != 0) {
                fprintf(stderr, "sor: boundary point (%ld, %ld) changed\n", i, j);
                return 0;
            }
            if (!isfinite(v)) {
                fprintf(stderr, "sor: point (%ld, %ld) is %g\n", i, j, v);
                return 0;
            }
        }
    }
    if (s->k < 1 || s->k > s->iters || (s->k < s->iters && !(s->maxdiff < s->epsilon))) {
        fprintf(stderr, "sor: %ld iterations with maxdiff %g: iters %ld, epsilon %g\n", s->k,
                s->maxdiff, s->iters, s->epsilon);
        return 0;
    }
    double scale = 0.0;
    for (long k = 0; k < w * w; ++k)
        if (fabs(s->x[k]) > scale)
            scale = fabs(s->x[k]);
    double slack = 16 * DBL_EPSILON * (1.0 + scale) * (1.0 + 1.0 / s->omega);
    double factor = fabs(1.0 / s->omega - 1.0);
    for (long i = 1; i <= n; ++i) {
        for (long j = 1; j <= n; ++j) {
            const double *p = s->x + i * w + j;
            double residual = fabs((p[-w] + p[w] + p[-1] + p[1]) * 0.25 - p[0]);
            int red = (i + j) % 2 == 0;
            double bound = s->maxdiff * (red ? factor + 1.0 : factor) * (1.0 + 1e-12) + slack;
            if (!(residual <= bound)) {
                fprintf(stderr, "sor: %s point (%ld, %ld) has residual %g, more than %g "
                        "for maxdiff %g\n", red ? "red" : "black", i, j, residual, bound,
                        s->maxdiff);
                return 0;
            }
        }
    }
    return 1;
}

static const void *result(void *problem, size_t *nbytes)
{
    const struct sor *s = problem;
    *nbytes = (size_t)(s->w * s->w) * sizeof *s->x;
    return s->x;
}

static void fields(void *problem, FILE *out)
{
    const struct sor *s = problem;
    fprintf(out, " omega=%g iters=%ld maxdiff=%.6e", s->omega, s->k, s->maxdiff);
}

static void destroy(void *problem)
{
    struct sor *s = problem;
    app_free(s->x);
    app_free(s);
}

static const struct app_impl impls[] = {
    { "seq", sor_seq, 0, "sequential: no parallel constructs" },
    { "cg", sor_cg, 1, "coarse grain: one pthread per server, strips, two spin barriers" },
    { "fil", sor_fil, 1, "Filaments: two phases, a filament per point, a continuation" },
    { NULL, NULL, 0, NULL },
};

static const struct app_option options[] = {
    { "iters", APP_LONG, 1, 1e9, 0, 0, &iters, "the most iterations" },
    { "epsilon", APP_DOUBLE, 0, DBL_MAX, 0, 0, &epsilon, "stop once maxdiff < epsilon" },
    { "omega", APP_DOUBLE, 0, 2, 1, 1, &omega, "the over-relaxation factor" },
    { NULL, 0, 0, 0, 0, 0, NULL, NULL },
};

static const struct app sor = {
    .name = "sor",
    .impls = impls,
    .options = options,
    .size_min = 1,
    .size_max = 100000,
    .size_default = 300,
    .bytes = bytes,
    .create = create,
    .check = check,
    .result = result,
    .fields = fields,
    .destroy = destroy,
};

int main(int argc, char **argv)
{
    return app_main(&sor, argc, argv);
}
