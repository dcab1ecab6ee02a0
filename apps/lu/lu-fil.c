/*
 * lu-fil.c - the Filaments LU decomposition [paper §2.2; Price §5.3.4]:
 * Figure 23's fork of a thread per row and join, as an iterative phase.
 *
 * One phase, one iterative filament per row, created once and run once
 * per step: a pass over the phase is a step's row updates, and the barrier
 * ending it is the join.  The barrier's sequential code is the sequential
 * part of the next step (lu_pivot: pivot search, swap, scaling of the
 * pivot row) and returns F_DONE after the last step; the main thread does
 * step 0's before f_parallel().  A filament reads the step and its pivot
 * from the problem, where the barrier code left them.
 *
 * Rows are dealt to servers cyclically (row i to server i mod nservers),
 * not by strips: the rows above step k have no work left but their swap,
 * so with strips the first servers would run out of work as the
 * factorization proceeds; dealt cyclically, every server keeps its share
 * of the remaining rows to the end.  Where a server is slower than the
 * others (a shared core), the library moves rows from it
 * (f_set_adaptive(F_ADAPT_ALL)).
 */
#include <filaments.h>

#include "app.h"
#include "lu.h"

static void row(long i, long unused, void *arg)
{
    const struct lu *f = arg;
    if (i != f->k)
        lu_row(f, i, f->k, f->pivot);
}

static int next_step(void *arg)
{
    struct lu *f = arg;
    if (f->k + 1 >= f->n - 1)
        return F_DONE;
    lu_pivot(f, f->k + 1);
    return F_NOTDONE;
}

void lu_fil(void *problem, int servers)
{
    struct lu *f = problem;
    if (f->n < 2)
        return;  /* nothing to eliminate */
    app_check_f(f_initialize(servers), "f_initialize");
    app_check_f(f_set_adaptive(F_ADAPT_ALL), "f_set_adaptive");  /* a row needs no server */
    app_check_f(f_new_barrier(next_step, f), "f_new_barrier");
    for (long i = 0; i < f->n; ++i) {
        int rc = f_iterative_thread((int)(i % servers), row, i, 0, f);
        if (rc < 0)
            app_check_f(rc, "f_iterative_thread");
    }
    lu_pivot(f, 0);
    app_check_f(f_parallel(), "f_parallel");
    f_finalize();
}
