/*
 * multigrid-seq.c - the sequential V cycles: every step of the cycle over
 * all rows of its level, then the residual.  No parallel constructs.
 */
#include "multigrid.h"

void multigrid_seq(void *problem, int servers)
{
    struct multigrid *g = problem;
    double correction;
    do {
        correction = 0.0;
        for (int s = 0; s < g->nsteps; ++s) {
            const struct mg_step *st = &g->step[s];
            const struct mg_level *lv = &g->level[st->level];
            double e = mg_step_rows(st, lv, 1, lv->n);
            if (st->level == 0 && e > correction)
                correction = e;
        }
    } while (!mg_end_cycle(g, correction));
    g->residual = mg_residual_max(&g->level[0], 1, g->n);
}
