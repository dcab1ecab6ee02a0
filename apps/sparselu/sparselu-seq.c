/*
 * sparselu-seq.c - the kernels of the blocked sparse LU (sparselu.h) and
 * the loop nest that every program runs; the sequential program runs it
 * with calls for tasks (app_tasks_seq, apps/common/app-tasks.h).
 *
 * The kernels are BOTS's [Duran] with their loops ordered so that the
 * innermost runs along a row (the compiler vectorizes it; restrict says the
 * blocks do not overlap): each element still receives its updates in the
 * order of k, as in BOTS's loops, so the order is the program's, not the
 * compiler's.
 */
#include "app.h"
#include "sparselu.h"

enum { BS = SPARSELU_BS };

/* The diagonal block in place: its unit lower factor below the diagonal,
 * the upper one on and above. */
static void lu0(float *restrict diag)
{
    for (int k = 0; k < BS; ++k)
        for (int i = k + 1; i < BS; ++i) {
            float l = diag[i * BS + k] /= diag[k * BS + k];
            for (int j = k + 1; j < BS; ++j)
                diag[i * BS + j] -= l * diag[k * BS + j];
        }
}

/* A block of row kk: the forward substitution by the diagonal's L. */
static void fwd(const float *restrict diag, float *restrict col)
{
    for (int k = 0; k < BS; ++k)
        for (int i = k + 1; i < BS; ++i) {
            float l = diag[i * BS + k];
            for (int j = 0; j < BS; ++j)
                col[i * BS + j] -= l * col[k * BS + j];
        }
}

/* A block of column kk: times the inverse of the diagonal's U. */
static void bdiv(const float *restrict diag, float *restrict row)
{
    for (int i = 0; i < BS; ++i)
        for (int k = 0; k < BS; ++k) {
            float l = row[i * BS + k] /= diag[k * BS + k];
            for (int j = k + 1; j < BS; ++j)
                row[i * BS + j] -= l * diag[k * BS + j];
        }
}

/* inner -= row * col: the Schur complement's share of step kk. */
static void bmod(const float *restrict row, const float *restrict col, float *restrict inner)
{
    for (int i = 0; i < BS; ++i)
        for (int k = 0; k < BS; ++k) {
            float a = row[i * BS + k];
            for (int j = 0; j < BS; ++j)
                inner[i * BS + j] -= a * col[k * BS + j];
        }
}

/* The update of block (i / NB, i % NB) in step kk: fwd in row kk, bdiv
 * in column kk, bmod elsewhere.  A task. */
static void update(long block, long kk, void *problem)
{
    const struct sparselu *m = problem;
    long ii = block / m->nb, jj = block % m->nb;
    const float *diag = sparselu_block(m, kk, kk);
    if (ii == kk)
        fwd(diag, sparselu_block(m, kk, jj));
    else if (jj == kk)
        bdiv(diag, sparselu_block(m, ii, kk));
    else
        bmod(sparselu_block(m, ii, kk), sparselu_block(m, kk, jj), sparselu_block(m, ii, jj));
}

void sparselu_factor(void *problem, const struct app_tasks *tasks)
{
    struct sparselu *m = problem;
    long nb = m->nb;
    for (long kk = 0; kk < nb; ++kk) {
        lu0(sparselu_block(m, kk, kk));
        for (long jj = kk + 1; jj < nb; ++jj)
            if (sparselu_block(m, kk, jj) != NULL)
                tasks->spawn(update, kk * nb + jj, kk, m);
        for (long ii = kk + 1; ii < nb; ++ii)
            if (sparselu_block(m, ii, kk) != NULL)
                tasks->spawn(update, ii * nb + kk, kk, m);
        tasks->wait();
        for (long ii = kk + 1; ii < nb; ++ii) {
            if (sparselu_block(m, ii, kk) == NULL)
                continue;
            for (long jj = kk + 1; jj < nb; ++jj) {
                if (sparselu_block(m, kk, jj) == NULL)
                    continue;
                /* Fill-in, before the spawn, by the one thread that
                 * spawns: its storage is its slot of the store, zero. */
                float **b = &m->block[ii * nb + jj];
                if (*b == NULL) {
                    *b = m->store + (ii * nb + jj) * BS * BS;
                    m->blocks++;
                }
                tasks->spawn(update, ii * nb + jj, kk, m);
            }
        }
        tasks->wait();
    }
}
