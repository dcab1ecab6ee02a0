/*
 * blu-seq.c - the block kernels of the blocked LU (blu.h) and the
 * sequential program: the steps and their phases in order, no parallel
 * constructs (Rodinia's lud without its pragmas [Che]).
 *
 * The kernels are Rodinia's with their loops ordered so that the innermost
 * runs along a row (the compiler vectorizes it; restrict says the blocks do
 * not overlap): each element still receives its updates in the order of k,
 * so the order is the program's, not the compiler's.  A block's element
 * (i, j) is at b[i * n + j], in place in the matrix.
 */
#include "blu.h"

enum { BS = BLU_BS };

static float *block(const struct blu *m, long ii, long jj)
{
    return m->a + (ii * m->n + jj) * BS;
}

/* The diagonal block in place: its unit lower factor below the diagonal,
 * the upper one on and above. */
static void diagonal(float *restrict d, long n)
{
    for (int k = 0; k < BS; ++k)
        for (int i = k + 1; i < BS; ++i) {
            float l = d[i * n + k] /= d[k * n + k];
            for (int j = k + 1; j < BS; ++j)
                d[i * n + j] -= l * d[k * n + j];
        }
}

/* A block of row kk: the forward substitution by the diagonal's L. */
static void top(const float *restrict d, float *restrict u, long n)
{
    for (int k = 0; k < BS; ++k)
        for (int i = k + 1; i < BS; ++i) {
            float l = d[i * n + k];
            for (int j = 0; j < BS; ++j)
                u[i * n + j] -= l * u[k * n + j];
        }
}

/* A block of column kk: times the inverse of the diagonal's U. */
static void left(const float *restrict d, float *restrict l, long n)
{
    for (int i = 0; i < BS; ++i)
        for (int k = 0; k < BS; ++k) {
            float x = l[i * n + k] /= d[k * n + k];
            for (int j = k + 1; j < BS; ++j)
                l[i * n + j] -= x * d[k * n + j];
        }
}

/* inner -= l * u: the Schur complement's share of a step. */
static void interior(const float *restrict l, const float *restrict u, float *restrict inner,
                     long n)
{
    for (int i = 0; i < BS; ++i)
        for (int k = 0; k < BS; ++k) {
            float x = l[i * n + k];
            for (int j = 0; j < BS; ++j)
                inner[i * n + j] -= x * u[k * n + j];
        }
}

void blu_diagonal(const struct blu *m, long kk)
{
    diagonal(block(m, kk, kk), m->n);
}

void blu_perimeter(const struct blu *m, long kk, long begin, long end)
{
    const float *d = block(m, kk, kk);
    for (long t = begin; t < end; ++t) {
        top(d, block(m, kk, kk + 1 + t), m->n);
        left(d, block(m, kk + 1 + t, kk), m->n);
    }
}

void blu_interior(const struct blu *m, long kk, long begin, long end)
{
    long rest = blu_rest(m, kk);
    for (long t = begin; t < end; ++t) {
        long ii = kk + 1 + t / rest, jj = kk + 1 + t % rest;
        interior(block(m, ii, kk), block(m, kk, jj), block(m, ii, jj), m->n);
    }
}

void blu_seq(void *problem, int servers)
{
    const struct blu *m = problem;
    for (long kk = 0; kk < m->nb; ++kk) {
        long rest = blu_rest(m, kk);
        blu_diagonal(m, kk);
        blu_perimeter(m, kk, 0, rest);
        blu_interior(m, kk, 0, rest * rest);
    }
}
