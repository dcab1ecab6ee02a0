/*
 * multigrid-fil.c - the Filaments V cycles [paper §2.2, §3.4]: iterative
 * and run-to-completion filaments.
 *
 * The cycles are one run of iterative filaments.  Each step of the cycle
 * (multigrid.h) is a phase, with one iterative filament per point it
 * updates (per point of the colour for a half sweep, per coarse point for
 * the restriction), placed by strips of rows of the step's level: row i of
 * level l goes to server (i - 1) * nservers / (n_l - 1), a coarse point of
 * the restriction to the server of fine row 2 ci.  The main thread creates
 * the filaments a row per call (f_iterative_row), so each row is a run,
 * executed by the range versions below with one call.  Creating all 8.7
 * million filaments at n = 1024 so takes about 1 ms at 2 servers; each
 * server creating its own rows (f_create_per_server) took 3-5 ms on a
 * loaded machine and 40-530 ms on a very loaded one, one round trip to
 * the servers for each of the cycle's 109 phases, where every server must
 * be scheduled before the next phase can open.  The phases run in circular order, so the
 * run does V cycle after V cycle; the barrier of the cycle's last phase
 * ends the cycle.
 *
 * The interpolation is two phases with a barrier between them (the odd
 * rows need the even rows' corrections, from the neighbouring strips too),
 * and its filaments pass a local value across the barriers in a
 * continuation [paper §2.2, §4.4]: each server's filaments of both phases
 * fold the largest correction they add to level 0 into the server's block,
 * which survives the barriers between them and those of the post-smoothing
 * sweeps, and the cycle's last barrier combines the blocks with
 * f_continuation_of(), resets them and counts the cycle (mg_end_cycle).
 *
 * After the cycles, a second run of run-to-completion filaments, one per
 * row of level 0 on the row's server, finds the largest residual with an
 * F_MAX reduction.
 */
#include <filaments.h>

#include "app.h"
#include "multigrid.h"

/* What a filament of a level sees. */
struct ctx {
    const struct mg_level *lv;
    f_continuation *correction;  /* level 0: a double per server; else NULL */
};

struct fil {
    struct multigrid *g;
    struct ctx *ctx;             /* per level */
    f_continuation *correction;
    f_reduction *residual;
};

/* ------------------------------------------------------------ the points */

static void red(long i, long k, void *arg)
{
    const struct ctx *c = arg;
    mg_relax_point(c->lv, i, mg_first(i, MG_RED) + 2 * k);
}

static void black(long i, long k, void *arg)
{
    const struct ctx *c = arg;
    mg_relax_point(c->lv, i, mg_first(i, MG_BLACK) + 2 * k);
}

static inline void residual(long i, long j, void *arg)
{
    const struct ctx *c = arg;
    mg_residual_point(c->lv, i, j);
}

static inline void restrict_(long ci, long cj, void *arg)
{
    const struct ctx *c = arg;
    mg_restrict_point(c->lv, ci, cj);
}

static inline void fold(const struct ctx *c, double e)
{
    if (c->correction != NULL) {
        double *block = f_continuation_local(c->correction);
        if (fabs(e) > *block)
            *block = fabs(e);
    }
}

static void interp_even(long i, long j, void *arg)
{
    const struct ctx *c = arg;
    fold(c, mg_interp_even_point(c->lv, i, j));
}

static void interp_odd(long i, long j, void *arg)
{
    const struct ctx *c = arg;
    fold(c, mg_interp_odd_point(c->lv, i, j));
}

/* ------------------------------------------------------- the range versions */

static inline void relax_run(const struct ctx *c, long i, long kb, long ke, int colour)
{
    long j = mg_first(i, colour) + 2 * kb;
    for (long k = kb; k < ke; ++k, j += 2)
        mg_relax_point(c->lv, i, j);
}

static void red_range(long i, long kb, long ke, void *arg)
{
    relax_run(arg, i, kb, ke, MG_RED);
}

static void black_range(long i, long kb, long ke, void *arg)
{
    relax_run(arg, i, kb, ke, MG_BLACK);
}

F_RANGE_VERSION(residual)
F_RANGE_VERSION(restrict_)

/* The interpolation's runs fetch the server's block once. */
static inline void interp_run(const struct ctx *c, long i, long jb, long je, int odd)
{
    double max = 0.0;
    for (long j = jb; j < je; ++j) {
        double e = odd ? mg_interp_odd_point(c->lv, i, j) : mg_interp_even_point(c->lv, i, j);
        if (fabs(e) > max)
            max = fabs(e);
    }
    fold(c, max);
}

static void interp_even_range(long i, long jb, long je, void *arg)
{
    interp_run(arg, i, jb, je, 0);
}

static void interp_odd_range(long i, long jb, long je, void *arg)
{
    interp_run(arg, i, jb, je, 1);
}

/* ------------------------------------------------------------ the barriers */

/* The barrier of the cycle's last phase. */
static int end_cycle(void *arg)
{
    struct fil *f = arg;
    double correction = 0.0;
    for (int s = 0; s < f_num_servers(); ++s) {
        double *block = f_continuation_of(f->correction, s);
        if (*block > correction)
            correction = *block;
        *block = 0.0;
    }
    return mg_end_cycle(f->g, correction) ? F_DONE : F_NOTDONE;
}

/* ---------------------------------------------------------- the creation */

/* The server of row i (1 .. n-1) of a level with n intervals. */
static int owner(const struct mg_level *lv, long i, int nservers)
{
    return (int)app_strip_of(i - 1, lv->n - 1, nservers);
}

/* The filaments (i, j_begin .. j_end - 1) of row `row` of the level, on
 * the row's server, in one call. */
static void create_row(const struct mg_level *lv, long row, f_func fn, long i, long j_begin,
                       long j_end, struct ctx *c, int nservers)
{
    app_check_f(f_iterative_row(owner(lv, row, nservers), fn, i, j_begin, j_end, c),
                "f_iterative_row");
}

/* One step's filaments, in the phase just opened. */
static void create_step(struct fil *f, const struct mg_step *st, int nservers)
{
    struct ctx *c = &f->ctx[st->level];
    const struct mg_level *lv = c->lv;
    long n = lv->n;
    switch (st->kind) {
    case MG_RELAX:
        for (long i = 1; i < n; ++i)
            create_row(lv, i, st->colour == MG_RED ? red : black, i, 0,
                       mg_count(n, i, st->colour), c, nservers);
        break;
    case MG_RESIDUAL:
        for (long i = 1; i < n; ++i)
            create_row(lv, i, residual, i, 1, n, c, nservers);
        break;
    case MG_RESTRICT:
        for (long ci = 1; ci < n / 2; ++ci)
            create_row(lv, 2 * ci, restrict_, ci, 1, n / 2, c, nservers);
        break;
    case MG_INTERP_EVEN:
    case MG_INTERP_ODD:
        for (long i = st->kind == MG_INTERP_EVEN ? 2 : 1; i < n; i += 2)
            create_row(lv, i, st->kind == MG_INTERP_EVEN ? interp_even : interp_odd, i, 1, n,
                       c, nservers);
        break;
    }
}

/* Run-to-completion: the largest residual of row i of level 0. */
static void residual_row(long i, long unused, void *arg)
{
    struct fil *f = arg;
    f_reduce(f->residual, mg_residual_max(&f->g->level[0], i, i + 1));
}

void multigrid_fil(void *problem, int servers)
{
    struct multigrid *g = problem;
    struct fil f = { g, NULL, NULL, NULL };
    app_check_f(f_initialize(servers), "f_initialize");
    if ((f.correction = f_new_continuation(sizeof(double))) == NULL)
        app_fail("f_new_continuation: out of memory");
    f.ctx = app_alloc((size_t)g->nlevels, sizeof *f.ctx);
    for (int l = 0; l < g->nlevels; ++l)
        f.ctx[l] = (struct ctx){ &g->level[l], l == 0 ? f.correction : NULL };
    app_check_f(f_set_range_version(red, red_range), "f_set_range_version");
    app_check_f(f_set_range_version(black, black_range), "f_set_range_version");
    app_check_f(f_set_range_version(residual, residual_range), "f_set_range_version");
    app_check_f(f_set_range_version(restrict_, restrict__range), "f_set_range_version");
    app_check_f(f_set_range_version(interp_even, interp_even_range), "f_set_range_version");
    app_check_f(f_set_range_version(interp_odd, interp_odd_range), "f_set_range_version");

    /* A point's filament may run on any server: the corrections fold into
     * the running server's block, and end_cycle combines them all. */
    app_check_f(f_set_adaptive(F_ADAPT_ALL), "f_set_adaptive");
    for (int s = 0; s < g->nsteps; ++s) {
        int rc = f_new_barrier(s == g->nsteps - 1 ? end_cycle : NULL, &f);
        app_check_f(rc, "f_new_barrier");
        create_step(&f, &g->step[s], servers);
    }
    app_check_f(f_parallel(), "f_parallel");

    if ((f.residual = f_new_reduction(F_MAX)) == NULL)
        app_fail("f_new_reduction: out of memory");
    for (long i = 1; i < g->n; ++i) {
        int rc = f_rtc_thread(owner(&g->level[0], i, servers), residual_row, i, 0, &f);
        if (rc < 0)
            app_check_f(rc, "f_rtc_thread");
    }
    app_check_f(f_parallel(), "f_parallel");
    /* The identity of F_MAX is -infinity; the residual of a grid with no interior is 0. */
    g->residual = g->n > 1 ? f_reduction_value(f.residual) : 0.0;
    if (g->residual < 0.0)
        g->residual = 0.0;
    app_free(f.ctx);
    f_finalize();
}
