/*
 * floor.h - what bench/floor's files share: the knapsack's items, and the
 * F_TASK knapsack, which has a file of its own (floor-task.c) as a
 * program's task would: gcc decides per file whether to split its early
 * returns off into its callers.
 */
#ifndef FLOOR_H
#define FLOOR_H

struct item {
    int value;
    int weight;
};

/* Lace's knapsack of the n items at e in capacity c, as F_TASK_4, run as a
 * root: F_RUN's result, the best value in *best. */
int floor_knapsack_task(struct item *e, int c, int n, long *best);

#endif /* FLOOR_H */
