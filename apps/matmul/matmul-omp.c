/*
 * matmul-omp.c - matrix multiplication with OpenMP, a peer for the
 * benchmarks (doc/benchmarks.md, "Peers").  Built by gcc with -fopenmp into
 * apps/matmul/matmul (libgomp: --impl=omp, omp-for) and, where clang and
 * LLVM's libomp are found, by clang into apps/matmul/matmul-llvm
 * (--impl=omp-llvm, omp-llvm-for): two OpenMP runtimes cannot share a
 * process.
 *
 *   omp      a task per inner product, n^2 of them, as --impl=fil has a
 *            filament per inner product: the fine-grain program.
 *   omp-for  `omp for` over the rows, static schedule: the coarse-grain
 *            program (a strip of rows per thread, as --impl=cg).
 *
 * Every entry is matmul_inner(), so the result is bitwise the sequential
 * program's.  The team is started and ended inside the timed run.
 */
#include <omp.h>

#include "app.h"
#include "matmul.h"

void matmul_omp(void *problem, int servers)
{
    const struct matmul *m = problem;
    long n = m->n;
#pragma omp parallel num_threads(servers)
#pragma omp single
    for (long i = 0; i < n; ++i)
        for (long j = 0; j < n; ++j) {
#pragma omp task firstprivate(i, j)
            matmul_inner(m, i, j);
        }
}

void matmul_omp_for(void *problem, int servers)
{
    const struct matmul *m = problem;
    long n = m->n;
#pragma omp parallel for num_threads(servers) schedule(static)
    for (long i = 0; i < n; ++i)
        for (long j = 0; j < n; ++j)
            matmul_inner(m, i, j);
}
