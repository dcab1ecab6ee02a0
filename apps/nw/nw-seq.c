/*
 * nw-seq.c - the block kernel of the Needleman-Wunsch wavefront (nw.h) and
 * the sequential program: the diagonals one after another, each one's
 * blocks in order, no parallel constructs (Rodinia's nw without its
 * pragmas [Che]).
 *
 * A block's cells go row by row, each row left to right, in place in the
 * score matrix: a cell reads the one to its left, written just before, the
 * one above and the one above to the left, in this block's previous row or
 * in the blocks of the previous diagonal.
 */
#include "nw.h"

static void block(const struct nw *g, long bi, long bj)
{
    long w = g->w, i0 = 1 + bi * NW_BS, j0 = 1 + bj * NW_BS;
    long i1 = i0 + NW_BS <= w ? i0 + NW_BS : w, j1 = j0 + NW_BS <= w ? j0 + NW_BS : w;
    int *score = g->score, penalty = g->penalty;
    const int *ref = g->ref;
    for (long i = i0; i < i1; ++i) {
        int *row = score + i * w;
        const int *up = row - w, *r = ref + i * w;
        for (long j = j0; j < j1; ++j)
            row[j] = nw_best(up[j - 1] + r[j], row[j - 1] - penalty, up[j] - penalty);
    }
}

void nw_blocks(const struct nw *g, long d, long begin, long end)
{
    for (long bi = begin; bi < end; ++bi)
        block(g, bi, d - bi);
}

void nw_seq(void *problem, int servers)
{
    const struct nw *g = problem;
    for (long d = 0; d < 2 * g->nb - 1; ++d)
        nw_blocks(g, d, nw_diagonal_begin(g, d), nw_diagonal_end(g, d));
}
