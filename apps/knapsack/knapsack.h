/*
 * knapsack.h - the 0/1 knapsack by branch and bound: the items sorted by
 * value density, a branch per item (take it, leave it), and a branch cut
 * off when the fractional bound of what it can still reach is no better
 * than the best value found so far, shared by every thread.
 *
 * The instance (knapsack-common.c) is generated from --seed: --size items
 * of even weight uniform in [2, 2^30] and value equal to the weight, the
 * capacity half their total weight, made odd.  That is subset sum, the
 * knapsack the bound prunes least: every item has the same density, so
 * the fractional bound is the capacity itself until the items left cannot
 * fill it, and the search is a binary tree of tiny branches, two children
 * each, most of them near the leaves; the Filaments programs fork one
 * child of each, 67.8 million forks at the default 29 items (knapsack-fil.c).
 * Even weights and an odd capacity are the "even-odd" instances (after
 * R. G. Jeroslow, "Trivial integer programs unsolvable by branch-and-
 * bound", Mathematical Programming 6, 1974): no subset fills the capacity,
 * so no value found reaches the bound of a branch whose items can still
 * overfill it, and the search must expand every such branch, whatever it
 * found first.  They are nearly all of the branches, so the number hardly
 * depends on the order, and so on the program, pruned or not, or the
 * number of servers (a few hundred branches in tens of millions).  With
 * odd weights too, the first exact fill would end the search, and when
 * the order met it would decide the time (seed 1, 33 items, untyped, 1
 * server: from 17 to 109 million forks as the pruning threshold changed).
 * (The sort by density then keeps the generated order; knapsack_bound()
 * is the general bound.)
 *
 * A branch is (i, cap, value): items 0 .. i-1 decided, `cap` capacity
 * left, `value` taken.  It returns the best value of a complete choice in
 * its subtree, or -1 if it was cut off.  A branch whose bound is its own
 * value is complete (no choice of the items left adds to it), and records
 * its value as the best if it is better.  The root's value is then the
 * best of all: every best was recorded by a complete branch, whose value
 * reaches the root through the maxima of its ancestors.  In general which
 * branches are cut depends on the order in which the best values were
 * found (not on these instances, above); the optimal value is the same,
 * and the check compares it with an exhaustive search (meet in the
 * middle).
 *
 * Included by the C++ peer (knapsack-tbb.cc), hence the extern "C".
 */
#ifndef KNAPSACK_H
#define KNAPSACK_H

#include "app-stats.h"

#ifdef __cplusplus
extern "C" {
#endif

struct knapsack_item {
    long weight, value;
};

struct knapsack {
    long n;                      /* items */
    long capacity;
    struct knapsack_item *item;  /* by value density, the densest first */
    long *weights;               /* weights[i]: the total weight of items 0 .. i-1; n + 1 */
    long *values;                /* the same for the values */
    long seed;
    long best;                   /* the result: the optimal value */
    struct app_stats stats;  /* Filaments programs: the library's counters over the run */
};

/*
 * The fractional bound of branch (i, cap, value) [Dantzig]: the value of
 * the items taken, of the next items in density order while they fit
 * whole, and of the fraction of the first that does not fit, rounded down
 * (values are whole numbers): no choice of items i .. n-1 that fits in cap
 * is worth more.  The whole items are found by a binary search of the
 * running totals.  The fraction's product is below weight * value, 2^60.
 */
static inline long knapsack_bound(const struct knapsack *k, long i, long cap, long value)
{
    long lo = i, hi = k->n;  /* the most items i .. lo-1 that fit whole */
    while (lo < hi) {
        long mid = (lo + hi + 1) / 2;
        if (k->weights[mid] - k->weights[i] <= cap)
            lo = mid;
        else
            hi = mid - 1;
    }
    long bound = value + k->values[lo] - k->values[i];
    if (lo < k->n)
        bound += (cap - (k->weights[lo] - k->weights[i])) * k->item[lo].value / k->item[lo].weight;
    return bound;
}

/* knapsack-seq.c: the sequential search of branch (i, cap, value), the
 * best so far in *best. */
long knapsack_search(const struct knapsack *k, long i, long cap, long value, long *best);

/* The peers' task cutoff: branches at item >=
 * app_peer_depth(KNAPSACK_PEER_LEVELS, servers) are searched without tasks. */
#define KNAPSACK_PEER_LEVELS 10

/* The programs: run(problem, servers), as struct app_impl wants. */
void knapsack_seq(void *problem, int servers);
void knapsack_fil(void *problem, int servers);        /* knapsack-fil.c */
void knapsack_fil_typed(void *problem, int servers);
/* knapsack-omp.c: libgomp, or libomp in knapsack-llvm */
void knapsack_omp(void *problem, int servers);
void knapsack_omp_fine(void *problem, int servers);
void knapsack_tbb(void *problem, int servers);        /* knapsack-tbb.cc */

#ifdef __cplusplus
}
#endif
#endif /* KNAPSACK_H */
