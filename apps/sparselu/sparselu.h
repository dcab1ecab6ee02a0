/*
 * sparselu.h - blocked LU factorization of a sparse matrix, in the shape of
 * the sparselu benchmark of BOTS [Duran]: an NB x NB matrix of BS x BS
 * blocks of floats, some of them null, factored without pivoting.  Step kk
 * factors the diagonal block (lu0), then updates, one task each, every
 * non-null block of row kk (fwd) and of column kk (bdiv), waits for them,
 * then updates every block (ii, jj), ii, jj > kk, whose blocks (ii, kk) and
 * (kk, jj) are both non-null (bmod), giving it storage first where it was
 * null (fill-in), and waits again.  One filament (or task) forks every
 * update of a phase in a loop and joins once, as OpenMP programs are
 * written: the shape that starves a thief of a library that prunes forks
 * into calls once its own deque holds a few (issue 46).
 *
 * The structure is BOTS's: the blocks on the three central diagonals, and
 * those of every third even row and column; the rest null.  The values are
 * a hash of each entry's place (apps/common/app.h, app_rand) in [-1, 1),
 * and the diagonal gets N = NB * BS more, so that the matrix is diagonally
 * dominant by rows and the factorization without pivoting is stable (BOTS
 * does not need that: it compares the parallel result with the sequential
 * one within a tolerance; the check here is a residual, sparselu-common.c).
 *
 * Each block is updated by one task per phase, and a task's reads are of
 * blocks that no task of its phase writes, so every program computes every
 * float by the same operations in the same order: bitwise the sequential
 * result at any server count.  --size is NB; BS is fixed.
 */
#ifndef SPARSELU_H
#define SPARSELU_H

#include "app-tasks.h"

#define SPARSELU_BS 32 /* a block's side: 32^3 multiply-adds per bmod, some microseconds */

struct sparselu {
    struct app_tasks_problem tasks; /* first (app-tasks.h) */
    long nb;                        /* blocks per side */
    float **block;                  /* block (ii, jj) at [ii * nb + jj]; NULL while null */
    float *store;                   /* every block's storage, zero while null: the result */
    long blocks;                    /* non-null blocks, fill-in included */
};

static inline float *sparselu_block(const struct sparselu *m, long ii, long jj)
{
    return m->block[ii * m->nb + jj];
}

/*
 * sparselu-seq.c: the factorization, BOTS's loop nest, written once: a
 * task per block update, started and waited for as the program says
 * (apps/common/app-tasks.h).
 */
void sparselu_factor(void *problem, const struct app_tasks *tasks);

#endif /* SPARSELU_H */
