/*
 * blu.h - a dense LU factorization by blocks, without pivoting, in the
 * shape of Rodinia's lud [Che]: an n x n matrix of floats, row-major, in
 * blocks of BLU_BS x BLU_BS, factored in place into L (unit lower, below
 * the diagonal) and U (on and above it).  Step kk of nb:
 *
 *   diagonal   factor block (kk, kk): one block, sequential;
 *   perimeter  for each i > kk, block (kk, i) of U (times the inverse of
 *              the diagonal's L) and block (i, kk) of L (times the inverse
 *              of its U): one loop of nb - kk - 1 iterations, a pair each;
 *   interior   every block (ii, jj), ii, jj > kk, less (ii, kk) times
 *              (kk, jj): one loop of (nb - kk - 1)^2 iterations.
 *
 * The shape OpenMP programs give it, and issue 57's: a loop per phase that
 * changes length every step, blocks of a microsecond or two, and a
 * sequential block between the loops.  Each block is written by one
 * iteration of a phase and read only by later phases, and every program
 * computes a block with the functions below, so every float is computed by
 * the same operations in the same order: bitwise the sequential result at
 * any server count.  --size is n, a multiple of BLU_BS.
 */
#ifndef BLU_H
#define BLU_H

#define BLU_BS 16 /* a block's side, Rodinia's BS */

struct blu {
    long n;   /* the matrix's order */
    long nb;  /* blocks per side, n / BLU_BS */
    float *a; /* n x n, row-major: A, then L and U */
};

/* The iterations of step kk's perimeter loop; its interior loop has the
 * square of that. */
static inline long blu_rest(const struct blu *m, long kk)
{
    return m->nb - kk - 1;
}

/* blu-seq.c: step kk's phases, every program's arithmetic.  The perimeter
 * and interior run their loops' iterations [begin, end) in order. */
void blu_diagonal(const struct blu *m, long kk);
void blu_perimeter(const struct blu *m, long kk, long begin, long end);
void blu_interior(const struct blu *m, long kk, long begin, long end);

/* The programs: run(problem, servers), as struct app_impl wants. */
void blu_seq(void *problem, int servers);
void blu_cg(void *problem, int servers);
void blu_fil(void *problem, int servers);
void blu_omp(void *problem, int servers); /* blu-omp.c, where configure found OpenMP */

#endif /* BLU_H */
