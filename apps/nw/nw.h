/*
 * nw.h - a Needleman-Wunsch alignment score matrix computed as a wavefront
 * of blocks, in the shape of Rodinia's nw [Che; Needleman]: two random
 * protein sequences of n residues, the (n + 1) x (n + 1) matrix of best
 * scores of their prefixes, score[i][j] the largest of
 *
 *     score[i-1][j-1] + ref[i][j]    (residues i and j aligned; BLOSUM62)
 *     score[i][j-1] - penalty        (a gap in the first sequence)
 *     score[i-1][j] - penalty        (a gap in the second)
 *
 * with row 0 and column 0 the gaps alone, -j * penalty and -i * penalty.
 * ref holds each pair's substitution score, set up before the run, as
 * Rodinia's `referrence` does: the kernel reads two matrices and writes one.
 *
 * The cells come in blocks of NW_BS x NW_BS (the last row and column of
 * blocks shorter where NW_BS does not divide n).  A block needs the blocks
 * above and to its left, so anti-diagonal d of blocks (bi + bj = d) can be
 * computed in any order, or in parallel, once diagonal d - 1 is done: the
 * programs differ only in how they run a diagonal's blocks.  The scores are
 * integers, each cell computed once from its final neighbours: every
 * program's matrix is bitwise the sequential one's at any server count.
 */
#ifndef NW_H
#define NW_H

#define NW_BS 16 /* a block's side, Rodinia's BLOCK_SIZE */

struct nw {
    long n;      /* residues per sequence */
    long w;      /* ints per row of the matrices, n + 1 */
    long nb;     /* blocks per side, ceil(n / NW_BS) */
    int penalty; /* the cost of a gap of one residue */
    int *score;  /* w x w: the result */
    int *ref;    /* w x w: ref[i][j], the substitution score of residues i and j (i, j >= 1) */
};

/* Anti-diagonal d of blocks (0 <= d < 2 nb - 1) holds the blocks (bi, d - bi)
 * with nw_diagonal_begin(g, d) <= bi < nw_diagonal_end(g, d). */
static inline long nw_diagonal_begin(const struct nw *g, long d)
{
    return d < g->nb ? 0 : d - g->nb + 1;
}

static inline long nw_diagonal_end(const struct nw *g, long d)
{
    return d < g->nb ? d + 1 : g->nb;
}

/* nw-seq.c: the blocks (bi, d - bi) for begin <= bi < end of diagonal d, in
 * that order; every program computes its cells with this. */
void nw_blocks(const struct nw *g, long d, long begin, long end);

/* The score of a cell from its three candidates, as Rodinia's maximum(). */
static inline int nw_best(int diagonal, int left, int up)
{
    int k = diagonal <= left ? left : diagonal;
    return k <= up ? up : k;
}

/* The programs: run(problem, servers), as struct app_impl wants. */
void nw_seq(void *problem, int servers);
void nw_cg(void *problem, int servers);
void nw_fil(void *problem, int servers);
void nw_omp(void *problem, int servers); /* nw-omp.c, where configure found OpenMP */

#endif /* NW_H */
