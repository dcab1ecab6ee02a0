/*
 * jacobi-seq.c - the sequential Jacobi iterations: no parallel constructs
 * [paper §3].
 *
 * jacobi_seq is the plain loop nest.  jacobi_calls is the floor of any
 * program with a thread per point: the same loops, but each point is a
 * call of the point function through a volatile function pointer, so the
 * compiler can neither inline it nor optimize across points.
 * jacobi_end_iteration, the end of every program's iteration, is here, below
 * all the programs, which jacobi-common.c's table lists.
 */
#include "grid.h"
#include "jacobi.h"

int jacobi_end_iteration(struct jacobi *g, double maxdiff)
{
    g->maxdiff = maxdiff;
    if (grid_last_iteration(&g->k, g->iters, maxdiff, g->epsilon))
        return 1;
    double *t = g->old;
    g->old = g->new;
    g->new = t;
    return 0;
}

void jacobi_seq(void *problem, int servers)
{
    struct jacobi *g = problem;
    double maxdiff;
    do {
        maxdiff = jacobi_rows(g->old, g->new, g->w, g->n, 1, g->n + 1);
    } while (!jacobi_end_iteration(g, maxdiff));
}

struct calls {
    struct jacobi *g;
    double maxdiff;
};

/* One point, as a thread-per-point program's thread would compute it. */
static void point(long i, long j, void *arg)
{
    struct calls *c = arg;
    const struct jacobi *g = c->g;
    double d = jacobi_point(g->old, g->new, g->w, i, j);
    if (d > c->maxdiff)
        c->maxdiff = d;
}

void jacobi_calls(void *problem, int servers)
{
    struct calls c = { problem, 0.0 };
    void (*volatile fn)(long, long, void *) = point;
    long n = c.g->n;
    do {
        c.maxdiff = 0.0;
        for (long i = 1; i <= n; ++i)
            for (long j = 1; j <= n; ++j)
                fn(i, j, &c);
    } while (!jacobi_end_iteration(c.g, c.maxdiff));
}
