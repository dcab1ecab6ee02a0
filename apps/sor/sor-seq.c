/*
 * sor-seq.c - the sequential red/black SOR: no parallel constructs [paper §3].
 */
#include "sor.h"

void sor_seq(void *problem, int servers)
{
    struct sor *s = problem;
    double red, black;
    do {
        red = sor_rows(s, 1, s->n + 1, SOR_RED);
        black = sor_rows(s, 1, s->n + 1, SOR_BLACK);
    } while (!sor_end_iteration(s, black > red ? black : red));
}
