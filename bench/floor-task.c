/*
 * floor-task.c - bench/floor's knapsack-task shape (floor.c): Lace's own
 * knapsack takes four arguments, the value so far among them, and a port
 * writes it as F_TASK_4, as f_fork(3) and F_TASK(3) show for more than
 * three; its base cases return early.
 */
#include <limits.h>

#include "filaments.h"
#include "floor.h"

F_TASK_4(long, knapsack_task, struct item *, e, int, c, int, n, int, v)
{
    if (c < 0)
        return INT_MIN;
    if (n == 0 || c == 0)
        return v;
    long with, without;
    if (F_FORK_LONG(&fr, knapsack_task, e + 1, c, n - 1, v) != F_OK) {
        without = F_CALL(knapsack_task, fr, e + 1, c, n - 1, v);
        with = F_CALL(knapsack_task, fr, e + 1, c - e->weight, n - 1, v + e->value);
    } else {
        with = F_CALL(knapsack_task, fr, e + 1, c - e->weight, n - 1, v + e->value);
        without = f_sync_long(&fr, knapsack_task);
    }
    return with > without ? with : without;
}

int floor_knapsack_task(struct item *e, int c, int n, long *best)
{
    return F_RUN(knapsack_task, best, e, c, n, 0);
}
