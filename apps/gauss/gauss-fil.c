/*
 * gauss-fil.c - the Filaments Gaussian elimination [paper §2.2, §3.4]:
 * "multiple barrier threads, with one pair of threads per column.  The
 * first thread in a pair computes the pivot; the second implements the
 * elimination phase."
 *
 * Iterative filaments are created once and run once per iteration of
 * their phase, so an iteration here is one step k of the elimination, in
 * two phases:
 *  - phase 0, the pivot: a filament per column j, which works only when
 *    j is the current step (j == k) and otherwise returns at once;
 *  - phase 1, the elimination: a filament per column j (and one for b's
 *    column n), which eliminates below row k in column j when j > k and
 *    otherwise returns at once.
 * Barrier 0 has no sequential code: it only makes the pivot row and the
 * multipliers visible to every server.  Barrier 1's sequential code
 * advances the step and returns F_DONE after the last one (k == n).  Both
 * filaments of column j live on server j mod p, the paper's static load
 * balance: "after a column is pivoted, it is never accessed again", so
 * strips would leave the first servers idle, while the cyclic deal keeps
 * the columns right of k spread over all of them.  A finished column's
 * filaments still run, as calls that test j against k: 2n + 1 calls per
 * step, O(n^2) in all against the O(n^3) elimination.  The back
 * substitution follows f_parallel(), in the main thread, as in the other
 * programs.
 */
#include <filaments.h>

#include "app.h"
#include "gauss.h"

static void pivot(long j, long unused, void *arg)
{
    struct gauss *g = arg;
    if (j == g->k)
        gauss_pivot(g, j);
}

static void eliminate(long j, long unused, void *arg)
{
    struct gauss *g = arg;
    if (j > g->k)
        gauss_eliminate(g, g->k, j);
}

/* Barrier 1's sequential code: the next step, or the end. */
static int next_step(void *arg)
{
    struct gauss *g = arg;
    return ++g->k >= g->n ? F_DONE : F_NOTDONE;
}

void gauss_fil(void *problem, int servers)
{
    struct gauss *g = problem;
    long n = g->n;
    int rc;
    g->k = 0;
    app_check_f(f_initialize(servers), "f_initialize");
    app_check_f(f_set_adaptive(F_ADAPT_ALL), "f_set_adaptive");  /* a column needs no server */
    app_check_f(f_new_barrier(NULL, NULL), "f_new_barrier");
    for (long j = 0; j < n; ++j)
        if ((rc = f_iterative_thread((int)(j % servers), pivot, j, 0, g)) < 0)
            app_check_f(rc, "f_iterative_thread");
    app_check_f(f_new_barrier(next_step, g), "f_new_barrier");
    for (long j = 0; j <= n; ++j)
        if ((rc = f_iterative_thread((int)(j % servers), eliminate, j, 0, g)) < 0)
            app_check_f(rc, "f_iterative_thread");
    app_check_f(f_parallel(), "f_parallel");
    f_finalize();
    gauss_back_substitute(g);
}
