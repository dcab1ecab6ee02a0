/*
 * knapsack-omp.c - the branch-and-bound knapsack with OpenMP tasks, a peer
 * for the benchmarks (doc/benchmarks.md, "Peers").  Built twice where both
 * are present: by gcc with -fopenmp into apps/knapsack/knapsack (libgomp:
 * --impl=omp, omp-fine), and by clang with -fopenmp=libomp into
 * apps/knapsack/knapsack-llvm (LLVM's libomp: --impl=omp-llvm,
 * omp-llvm-fine).
 *
 *   omp       the OpenMP idiom: the taking branch a task, the leaving one
 *             searched by the current task, taskwait; down to a depth
 *             cutoff (app_peer_depth: ceil(log2(servers)) + 10
 *             items), plain calls below it.
 *   omp-fine  the same with no cutoff: every taking branch a task.
 *
 * The best value so far is shared as in knapsack-fil.c: one word, read
 * and raised relaxed, a hint for cutting branches.  The team is started
 * and ended inside the timed run, as the Filaments programs start and end
 * their servers.
 */
#include <limits.h>

#include <atomic_ops.h>
#include <omp.h>

#include "app.h"
#include "knapsack.h"

static long search(const struct knapsack *k, volatile AO_t *best, long i, long cap, long value,
                   long cutoff)
{
    long bound = knapsack_bound(k, i, cap, value);
    if (bound == value) {
        AO_t old = AO_load(best);
        while ((long)old < value && !AO_compare_and_swap(best, old, (AO_t)value))
            old = AO_load(best);
        return value;
    }
    if (bound <= (long)AO_load(best))
        return -1;
    const struct knapsack_item *it = &k->item[i];
    long take = -1, leave;
    if (i < cutoff) {
        if (it->weight <= cap) {
#pragma omp task shared(take) firstprivate(k, best, i, cap, value, cutoff, it)
            take = search(k, best, i + 1, cap - it->weight, value + it->value, cutoff);
        }
        leave = search(k, best, i + 1, cap, value, cutoff);
#pragma omp taskwait
    } else {
        if (it->weight <= cap)
            take = search(k, best, i + 1, cap - it->weight, value + it->value, cutoff);
        leave = search(k, best, i + 1, cap, value, cutoff);
    }
    return take > leave ? take : leave;
}

static void run(struct knapsack *k, int servers, long cutoff)
{
    volatile AO_t best = 0;
#pragma omp parallel num_threads(servers)
#pragma omp single
    k->best = search(k, &best, 0, k->capacity, 0, cutoff);
}

void knapsack_omp(void *problem, int servers)
{
    run(problem, servers, app_peer_depth(KNAPSACK_PEER_LEVELS, servers));
}

void knapsack_omp_fine(void *problem, int servers)
{
    run(problem, servers, LONG_MAX);
}
