/*
 * taskpool-seq.c - the synthetic algorithm as a plain recursion: creating
 * a task is calling it [Korch §7.2].  No parallel constructs.
 */
#include "taskpool.h"

static struct taskpool_count task(long i, long f)
{
    struct taskpool_count c = { 1, taskpool_first(i, f) };
    if (i <= 0)
        return c;
    struct taskpool_count left = task(i - 2, f);
    uint64_t x = taskpool_middle(c.work, f);
    struct taskpool_count right = task(i - 1, f);
    c.work = taskpool_last(x, f);
    c.tasks += left.tasks + right.tasks;
    c.work += left.work + right.work;
    return c;
}

void taskpool_seq(void *problem, int servers)
{
    struct taskpool *tp = problem;
    struct taskpool_count total = { 0, 0 };
    for (long i = tp->k - 1; i >= 0; --i) {
        struct taskpool_count c = task(i, tp->f);
        total.tasks += c.tasks;
        total.work += c.work;
    }
    tp->result[0] = total.tasks;
    tp->result[1] = total.work;
}
