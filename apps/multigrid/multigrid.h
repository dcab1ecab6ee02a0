/*
 * multigrid.h - a multigrid V cycle for Poisson's equation [paper §3.4;
 * Press and Teukolsky, "Multigrid methods for boundary value problems"].
 *
 * -(u_xx + u_yy) = f on the unit square, u = 0 on the boundary, discretized
 * with the five-point stencil on an (n+1) x (n+1) grid, n a power of two,
 * h = 1/n.  Level 0 is that grid; level l has n >> l intervals per side,
 * down to level L with 2 intervals (one interior point).  Every level has
 * three grids of (n_l + 1)^2 doubles: u (the solution, or at l > 0 the
 * correction), f (the right-hand side, at l > 0 the restricted residual)
 * and r (the residual, then the interpolated correction).  Their boundary
 * rows and columns stay 0.
 *
 * One V cycle (MG_SWEEPS = --sweeps, the same before and after):
 *
 *   for l = 0 .. L-1:  MG_SWEEPS red/black Gauss-Seidel sweeps on level l;
 *                      r = f - A u on level l;
 *                      f on level l+1 = full weighting of r, u on level l+1 = 0
 *   level L:           one red sweep, which solves its one equation exactly
 *   for l = L-1 .. 0:  u += bilinear interpolation of level l+1's u, even
 *                      rows first (from the coarse grid), then odd rows (the
 *                      mean of the even rows above and below);
 *                      MG_SWEEPS red/black sweeps on level l
 *
 * Each step is a pass over rows of one level, and each is followed by a
 * barrier in the parallel programs: a step reads what the one before wrote
 * on neighbouring rows.  The steps of a cycle are listed once
 * (mg_cycle_steps) and every program walks that list, computing each point
 * with the functions below, the same expressions in the same order.  The
 * points a step updates depend only on values the step does not write (the
 * other colour, another grid, the other row parity), so the order of the
 * points within a step does not matter and all programs produce bitwise
 * identical grids.
 *
 * The largest correction added to level 0 in a cycle (max |e|) is the
 * cycle's measure of progress: --epsilon stops the cycles once it is
 * below epsilon.  After the cycles, each program computes the largest
 * residual of level 0, max |f - A u|, which the check recomputes.
 */
#ifndef MULTIGRID_H
#define MULTIGRID_H

#include <math.h>

enum { MG_RED = 0, MG_BLACK = 1 };

struct mg_level {
    long n, w;         /* intervals per side; doubles per row (n + 1) */
    double h2;         /* h^2 = 1 / n^2 */
    double inv_h2;     /* n^2 */
    double *u, *f, *r;
    struct mg_level *coarse;  /* level l + 1, or NULL at level L */
};

/* What a step of the cycle does, at `level`. */
enum mg_kind {
    MG_RELAX,        /* a red or black Gauss-Seidel half sweep (colour) */
    MG_RESIDUAL,     /* r = f - A u */
    MG_RESTRICT,     /* level + 1: f = full weighting of r, u = 0 */
    MG_INTERP_EVEN,  /* even rows: u += e from level + 1, r = e */
    MG_INTERP_ODD,   /* odd rows: u += e, the mean of r's even rows above and below */
};

struct mg_step {
    enum mg_kind kind;
    int level;
    int colour;      /* MG_RELAX only */
};

struct multigrid {
    long n;
    int nlevels;             /* L + 1 */
    struct mg_level *level;  /* [nlevels] */
    double *store;           /* every level's grids */
    struct mg_step *step;    /* one V cycle */
    int nsteps;
    long sweeps;             /* red/black sweeps before and after the coarse correction */
    long iters;              /* the most V cycles */
    double epsilon;          /* stop once a cycle's largest correction < epsilon */
    long cycles;             /* V cycles done */
    double correction;       /* the largest correction of level 0 in the last cycle */
    double residual0;        /* max |f| (the residual of u = 0), from the setup */
    double residual;         /* max |f - A u| after the run, computed by the program */
    double checked;          /* the same, recomputed by the check */
};

/* The first column of `colour` in row i: points (i, j), j = first, first + 2, ... < n. */
static inline long mg_first(long i, int colour)
{
    return 1 + ((i + 1 + colour) & 1);
}

/* How many points of `colour` interior row i of a level with n intervals has. */
static inline long mg_count(long n, long i, int colour)
{
    long first = mg_first(i, colour);
    return first > n - 1 ? 0 : (n - 1 - first) / 2 + 1;
}

/* Gauss-Seidel at (i, j): solve the point's equation for u[i][j]. */
static inline void mg_relax_point(const struct mg_level *lv, long i, long j)
{
    long w = lv->w;
    double *u = lv->u + i * w + j;
    *u = (u[-w] + u[w] + u[-1] + u[1] + lv->h2 * lv->f[i * w + j]) * 0.25;
}

/* The residual at (i, j). */
static inline double mg_residual_at(const struct mg_level *lv, long i, long j)
{
    long w = lv->w;
    const double *u = lv->u + i * w + j;
    return lv->f[i * w + j] - (4.0 * u[0] - (u[-w] + u[w] + u[-1] + u[1])) * lv->inv_h2;
}

static inline void mg_residual_point(const struct mg_level *lv, long i, long j)
{
    lv->r[i * lv->w + j] = mg_residual_at(lv, i, j);
}

/* Coarse point (ci, cj) of level l + 1 from r of level l (full weighting). */
static inline void mg_restrict_point(const struct mg_level *lv, long ci, long cj)
{
    const struct mg_level *c = lv->coarse;
    long w = lv->w;
    const double *r = lv->r + 2 * ci * w + 2 * cj;
    double edges = r[-w] + r[w] + r[-1] + r[1];
    double corners = r[-w - 1] + r[-w + 1] + r[w - 1] + r[w + 1];
    c->f[ci * c->w + cj] = (4.0 * r[0] + 2.0 * edges + corners) * 0.0625;
    c->u[ci * c->w + cj] = 0.0;
}

/* Even row i: add the interpolated correction at (i, j) to u, keep it in
 * r for the odd rows, and return it. */
static inline double mg_interp_even_point(const struct mg_level *lv, long i, long j)
{
    const struct mg_level *c = lv->coarse;
    const double *cu = c->u + (i / 2) * c->w;
    double e = j % 2 == 0 ? cu[j / 2] : 0.5 * (cu[j / 2] + cu[j / 2 + 1]);
    lv->u[i * lv->w + j] += e;
    lv->r[i * lv->w + j] = e;
    return e;
}

/* Odd row i: the mean of the corrections above and below. */
static inline double mg_interp_odd_point(const struct mg_level *lv, long i, long j)
{
    long w = lv->w;
    double e = 0.5 * (lv->r[(i - 1) * w + j] + lv->r[(i + 1) * w + j]);
    lv->u[i * w + j] += e;
    return e;
}

/*
 * A step on the rows [first, end) of its level (for MG_RESTRICT: the
 * coarse rows ci with first <= 2 ci < end), the whole step with first = 1,
 * end = n.  Returns the largest |correction| for the interpolation steps,
 * else 0.
 */
static inline double mg_step_rows(const struct mg_step *s, const struct mg_level *lv,
                                  long first, long end)
{
    double max = 0.0;
    switch (s->kind) {
    case MG_RELAX:
        for (long i = first; i < end; ++i)
            for (long j = mg_first(i, s->colour); j < lv->n; j += 2)
                mg_relax_point(lv, i, j);
        break;
    case MG_RESIDUAL:
        for (long i = first; i < end; ++i)
            for (long j = 1; j < lv->n; ++j)
                mg_residual_point(lv, i, j);
        break;
    case MG_RESTRICT:
        for (long ci = (first + 1) / 2; 2 * ci < end; ++ci)
            for (long cj = 1; cj < lv->coarse->n; ++cj)
                mg_restrict_point(lv, ci, cj);
        break;
    case MG_INTERP_EVEN:
    case MG_INTERP_ODD:
        for (long i = first + ((first & 1) != (s->kind == MG_INTERP_ODD)); i < end; i += 2) {
            for (long j = 1; j < lv->n; ++j) {
                double e = s->kind == MG_INTERP_EVEN ? mg_interp_even_point(lv, i, j)
                                                     : mg_interp_odd_point(lv, i, j);
                if (fabs(e) > max)
                    max = fabs(e);
            }
        }
        break;
    }
    return max;
}

/* The largest |residual| on rows [first, end) of a level. */
static inline double mg_residual_max(const struct mg_level *lv, long first, long end)
{
    double max = 0.0;
    for (long i = first; i < end; ++i) {
        for (long j = 1; j < lv->n; ++j) {
            double r = fabs(mg_residual_at(lv, i, j));
            if (r > max)
                max = r;
        }
    }
    return max;
}

/*
 * The end of a cycle, for every program (run by one thread): record the
 * cycle's largest correction of level 0, count the cycle, and return 1 if
 * the run is over.
 */
static inline int mg_end_cycle(struct multigrid *g, double correction)
{
    g->correction = correction;
    return ++g->cycles >= g->iters || correction < g->epsilon;
}

/* The programs: run(problem, servers), as struct app_impl wants. */
void multigrid_seq(void *problem, int servers);
void multigrid_cg(void *problem, int servers);
void multigrid_fil(void *problem, int servers);

#endif /* MULTIGRID_H */
