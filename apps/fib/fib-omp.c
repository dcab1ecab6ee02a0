/*
 * fib-omp.c - Fibonacci with OpenMP tasks, a peer for the benchmarks
 * (doc/benchmarks.md, "Peers").  Built twice where both are present: by gcc with
 * -fopenmp into apps/fib/fib (libgomp: --impl=omp, omp-fine), and by clang
 * with -fopenmp=libomp into apps/fib/fib-llvm (LLVM's libomp: --impl=
 * omp-llvm, omp-llvm-fine).  Two OpenMP runtimes cannot share one process,
 * hence two programs.
 *
 *   omp       the OpenMP idiom: a task per call down to a depth cutoff
 *             (app_peer_depth: ceil(log2(servers)) + 8 levels, some
 *             2^8 tasks per thread), sequential code (fib_seq_value) below
 *             it, as fil-seq runs its sequential version in pruned subtrees.
 *   omp-fine  every call a task (fork fib(n - 1) as a task, call fib(n - 2),
 *             taskwait), as --impl=fil with pruning off.
 *
 * The team is started and ended inside the timed run, as the Filaments
 * programs start and end their servers.
 */
#include <omp.h>

#include "app.h"
#include "fib.h"

static long fib_cut(long n, int depth, int cutoff)
{
    long a, b;
    if (n < 2)
        return n;
    if (depth >= cutoff)
        return fib_seq_value(n);
#pragma omp task shared(a) firstprivate(n, depth, cutoff)
    a = fib_cut(n - 1, depth + 1, cutoff);
    b = fib_cut(n - 2, depth + 1, cutoff);
#pragma omp taskwait
    return a + b;
}

static long fib_fine(long n)
{
    long a, b;
    if (n < 2)
        return n;
#pragma omp task shared(a) firstprivate(n)
    a = fib_fine(n - 1);
    b = fib_fine(n - 2);
#pragma omp taskwait
    return a + b;
}

void fib_omp(void *problem, int servers)
{
    struct fib *p = problem;
    int cutoff = app_peer_depth(FIB_PEER_LEVELS, servers);
#pragma omp parallel num_threads(servers)
#pragma omp single
    p->result = fib_cut(p->n, 0, cutoff);
}

void fib_omp_fine(void *problem, int servers)
{
    struct fib *p = problem;
#pragma omp parallel num_threads(servers)
#pragma omp single
    p->result = fib_fine(p->n);
}
