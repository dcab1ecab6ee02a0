/*
 * multigrid-common.c - multigrid's setup, the V cycle's steps, the check
 * and main [paper §3.4].
 *
 * --size is n, a power of two from 2 up (others are a bad option, exit
 * status 2); f holds pseudo-random numbers, uniform in [-1, 1), from a
 * fixed seed, and u starts at 0.  --iters V cycles (fewer if --epsilon
 * stops them), each with --sweeps red/black sweeps before and after the
 * coarse correction.
 *
 * The check: the residual the program reports is bitwise that of the final
 * u (recomputed here), and it has come down from the residual of u = 0 by
 * at least RATE per cycle: residual <= residual0 * RATE^cycles, or it is
 * down to rounding, FLOOR_ULPS * DBL_EPSILON * (8 n^2 max|u| + max|f|)
 * (the size of the terms whose difference the residual is).  A V(2,2)
 * cycle of this kind cuts the residual by about 20 per cycle at every size
 * (measured for n = 8 to 1024: 0.02 to 0.06 per cycle), a V(1,1) cycle by
 * about 10 (0.06 to 0.22).  RATE is 0.5: a correct V cycle meets it with
 * room to spare; one that loses the coarse-grid correction (smoothing
 * alone) fails it from n = 64 up.  --verify compares u with the
 * sequential program's bitwise.
 */
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "multigrid.h"

#define RATE 0.5
#define FLOOR_ULPS 64.0
#define SIZE_MAX_MG 16384

static long iters = 10;
static long sweeps = 2;
static double epsilon = 0.0;

static int power_of_two(long v)
{
    return v > 0 && (v & (v - 1)) == 0;
}

static int nlevels(long n)
{
    int levels = 1;
    for (long m = n; m > 2; m /= 2)
        ++levels;
    return levels;
}

/* Doubles in every level's three grids. */
static size_t doubles(long n)
{
    size_t total = 0;
    for (long m = n; m >= 2; m /= 2)
        total += 3 * (size_t)(m + 1) * (size_t)(m + 1);
    return total;
}

static size_t bytes(long size)
{
    if (!power_of_two(size)) {
        /* Bad option: one line, exit status 2, as app.c's (which knows ranges, not powers). */
        fprintf(stderr, "multigrid: --size: expected a power of two from 2 to %d, got '%ld'\n",
                SIZE_MAX_MG, size);
        exit(2);
    }
    return app_bytes_add(0, doubles(size), sizeof(double));
}

static void add_step(struct multigrid *g, enum mg_kind kind, int level, int colour)
{
    g->step[g->nsteps++] = (struct mg_step){ kind, level, colour };
}

static void add_sweeps(struct multigrid *g, int level)
{
    for (long s = 0; s < g->sweeps; ++s) {
        add_step(g, MG_RELAX, level, MG_RED);
        add_step(g, MG_RELAX, level, MG_BLACK);
    }
}

/* One V cycle, as multigrid.h lists it. */
static void make_cycle(struct multigrid *g)
{
    int top = g->nlevels - 1;
    g->step = app_alloc((size_t)(top * (4 * g->sweeps + 4) + 1), sizeof *g->step);
    for (int l = 0; l < top; ++l) {
        add_sweeps(g, l);
        add_step(g, MG_RESIDUAL, l, 0);
        add_step(g, MG_RESTRICT, l, 0);
    }
    add_step(g, MG_RELAX, top, MG_RED);  /* one point: exact */
    for (int l = top - 1; l >= 0; --l) {
        add_step(g, MG_INTERP_EVEN, l, 0);
        add_step(g, MG_INTERP_ODD, l, 0);
        add_sweeps(g, l);
    }
}

static double max_abs(const double *v, size_t count)
{
    double max = 0.0;
    for (size_t k = 0; k < count; ++k)
        if (fabs(v[k]) > max)
            max = fabs(v[k]);
    return max;
}

static void *create(const struct app_args *args)
{
    long n = args->size;
    struct multigrid *g = app_alloc(1, sizeof *g);
    g->n = n;
    g->nlevels = nlevels(n);
    g->sweeps = sweeps;
    g->iters = iters;
    g->epsilon = epsilon;
    g->level = app_alloc((size_t)g->nlevels, sizeof *g->level);
    g->store = app_alloc(doubles(n), sizeof *g->store);
    double *next = g->store;
    for (int l = 0; l < g->nlevels; ++l) {
        struct mg_level *lv = &g->level[l];
        long m = n >> l, cells = (m + 1) * (m + 1);
        lv->n = m;
        lv->w = m + 1;
        lv->inv_h2 = (double)m * (double)m;
        lv->h2 = 1.0 / lv->inv_h2;
        lv->u = next;
        lv->f = next + cells;
        lv->r = next + 2 * cells;
        next += 3 * cells;
        lv->coarse = l + 1 < g->nlevels ? &g->level[l + 1] : NULL;
    }
    struct mg_level *top = &g->level[0];
    uint64_t seed = 1;
    for (long i = 1; i < n; ++i)
        for (long j = 1; j < n; ++j)
            top->f[i * top->w + j] = 2.0 * app_rand_double(&seed) - 1.0;
    g->residual0 = mg_residual_max(top, 1, n);
    make_cycle(g);
    return g;
}

static int check(void *problem)
{
    struct multigrid *g = problem;
    const struct mg_level *top = &g->level[0];
    long n = g->n;
    size_t cells = (size_t)(top->w * top->w);
    if (g->cycles < 1 || g->cycles > g->iters ||
        (g->cycles < g->iters && !(g->correction < g->epsilon))) {
        fprintf(stderr, "multigrid: %ld cycles with correction %g: iters %ld, epsilon %g\n",
                g->cycles, g->correction, g->iters, g->epsilon);
        return 0;
    }
    for (long i = 0; i <= n; ++i) {
        for (long j = 0; j <= n; ++j) {
            double v = top->u[i * top->w + j];
            int boundary = i == 0 || j == 0 || i == n || j == n;
            if (boundary ? v != 0.0 : !isfinite(v)) {
                fprintf(stderr, "multigrid: u[%ld][%ld] is %g\n", i, j, v);
                return 0;
            }
        }
    }
    g->checked = mg_residual_max(top, 1, n);
    if (memcmp(&g->checked, &g->residual, sizeof g->checked) != 0) {
        fprintf(stderr, "multigrid: residual %.17g, its recomputation %.17g\n", g->residual,
                g->checked);
        return 0;
    }
    double bound = g->residual0 * pow(RATE, (double)g->cycles);
    double floor = FLOOR_ULPS * DBL_EPSILON *
                   (8.0 * (double)n * (double)n * max_abs(top->u, cells) + max_abs(top->f, cells));
    if (!(g->residual <= bound || g->residual <= floor)) {
        fprintf(stderr, "multigrid: residual %.3e after %ld cycles from %.3e: more than %.3e "
                "(rate %g) and than rounding, %.3e\n",
                g->residual, g->cycles, g->residual0, bound, RATE, floor);
        return 0;
    }
    return 1;
}

static const void *result(void *problem, size_t *nbytes)
{
    const struct multigrid *g = problem;
    *nbytes = (size_t)(g->level[0].w * g->level[0].w) * sizeof(double);
    return g->level[0].u;
}

static void fields(void *problem, FILE *out)
{
    const struct multigrid *g = problem;
    fprintf(out, " cycles=%ld sweeps=%ld correction=%.6e residual0=%.6e residual=%.6e", g->cycles,
            g->sweeps, g->correction, g->residual0, g->residual);
}

static void destroy(void *problem)
{
    struct multigrid *g = problem;
    app_free(g->step);
    app_free(g->store);
    app_free(g->level);
    app_free(g);
}

static const struct app_impl impls[] = {
    { "seq", multigrid_seq, 0, "sequential: no parallel constructs" },
    { "cg", multigrid_cg, 1, "coarse grain: pthreads, strips of rows, a spin barrier per step" },
    { "fil", multigrid_fil, 1, "Filaments: iterative filaments per point, a phase per step" },
    { NULL, NULL, 0, NULL },
};

static const struct app_option options[] = {
    { "iters", APP_LONG, 1, 1e9, 0, 0, &iters, "the most V cycles" },
    { "sweeps", APP_LONG, 1, 100, 0, 0, &sweeps,
      "red/black sweeps before and after the coarse grid" },
    { "epsilon", APP_DOUBLE, 0, DBL_MAX, 0, 0, &epsilon,
      "stop once a cycle's largest correction < epsilon" },
    { NULL, 0, 0, 0, 0, 0, NULL, NULL },
};

static const struct app multigrid = {
    .name = "multigrid",
    .impls = impls,
    .options = options,
    .size_min = 2,
    .size_max = SIZE_MAX_MG,
    .size_default = 512,
    .bytes = bytes,
    .create = create,
    .check = check,
    .result = result,
    .fields = fields,
    .destroy = destroy,
};

int main(int argc, char **argv)
{
    return app_main(&multigrid, argc, argv);
}
