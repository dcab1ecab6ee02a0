/*
 * sor-seq.c - the sequential red/black SOR: no parallel constructs [paper §3].
 * sor_end_iteration, the end of every program's iteration, is here, below
 * all the programs, which sor-common.c's table lists.
 */
#include "grid.h"
#include "sor.h"

int sor_end_iteration(struct sor *s, double maxdiff)
{
    s->maxdiff = maxdiff;
    return grid_last_iteration(&s->k, s->iters, maxdiff, s->epsilon);
}

void sor_seq(void *problem, int servers)
{
    struct sor *s = problem;
    double red, black;
    do {
        red = sor_rows(s, 1, s->n + 1, SOR_RED);
        black = sor_rows(s, 1, s->n + 1, SOR_BLACK);
    } while (!sor_end_iteration(s, black > red ? black : red));
}
