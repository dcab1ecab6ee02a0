/*
 * knapsack-seq.c - the sequential branch and bound: a depth-first
 * recursion, the taking branch first (it follows the items in density
 * order, so the first complete choice is the greedy one), no parallel
 * constructs.
 */
#include "knapsack.h"

long knapsack_search(const struct knapsack *k, long i, long cap, long value, long *best)
{
    long bound = knapsack_bound(k, i, cap, value);
    if (bound == value) {  /* complete: nothing more fits */
        if (value > *best)
            *best = value;
        return value;
    }
    if (bound <= *best)
        return -1;
    long take = -1;
    if (k->item[i].weight <= cap)
        take = knapsack_search(k, i + 1, cap - k->item[i].weight, value + k->item[i].value, best);
    long leave = knapsack_search(k, i + 1, cap, value, best);
    return take > leave ? take : leave;
}

void knapsack_seq(void *problem, int servers)
{
    struct knapsack *k = problem;
    long best = 0;
    k->best = knapsack_search(k, 0, k->capacity, 0, &best);
}
