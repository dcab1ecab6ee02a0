/*
 * knapsack-tbb.cc - the branch-and-bound knapsack with oneTBB, a peer for
 * the benchmarks (doc/benchmarks.md, "Peers"): --impl=tbb.
 *
 * The TBB idiom: tbb::task_group runs the taking branch as a task while
 * the caller searches the leaving one, then waits; down to the same depth
 * cutoff as the OpenMP peer (app_peer_depth), plain calls below it.
 * The best value so far is a std::atomic, read and raised relaxed, a hint
 * for cutting branches, as in knapsack-fil.c.  A task_arena of `servers`
 * threads, allowed by a global_control, runs it; both are made and
 * destroyed inside the timed run.
 */
#include <atomic>

#include <tbb/task_group.h>

#include "app-tbb.h"
#include "knapsack.h"

static long search(const struct knapsack *k, std::atomic<long> &best, long i, long cap, long value,
                   long cutoff)
{
    long bound = knapsack_bound(k, i, cap, value);
    if (bound == value) {
        long old = best.load(std::memory_order_relaxed);
        while (old < value && !best.compare_exchange_weak(old, value, std::memory_order_relaxed))
            ;
        return value;
    }
    if (bound <= best.load(std::memory_order_relaxed))
        return -1;
    const struct knapsack_item *it = &k->item[i];
    long take = -1, leave;
    if (i < cutoff) {
        tbb::task_group g;
        if (it->weight <= cap)
            g.run([&] {
                take = search(k, best, i + 1, cap - it->weight, value + it->value, cutoff);
            });
        leave = search(k, best, i + 1, cap, value, cutoff);
        g.wait();
    } else {
        if (it->weight <= cap)
            take = search(k, best, i + 1, cap - it->weight, value + it->value, cutoff);
        leave = search(k, best, i + 1, cap, value, cutoff);
    }
    return take > leave ? take : leave;
}

extern "C" void knapsack_tbb(void *problem, int servers)
{
    struct knapsack *k = static_cast<struct knapsack *>(problem);
    long cutoff = app_peer_depth(KNAPSACK_PEER_LEVELS, servers);
    std::atomic<long> best(0);
    app_tbb_run(servers, [&] { k->best = search(k, best, 0, k->capacity, 0, cutoff); });
}
