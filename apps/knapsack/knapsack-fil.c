/*
 * knapsack-fil.c - the Filaments branch and bound: a fork/join filament
 * per branch (knapsack.h).  A branch that is neither complete nor cut off
 * forks the branch that leaves item i, for a thief or for later, and calls
 * the one that takes it, if the item fits, first, as the sequential program
 * does; it returns the better of their values.  One fork per branch, as the
 * peers spawn one child and call the other.
 *
 *   fil        f_fork/f_join, each child's value in a struct in the
 *              parent's frame; the library's pruning (F_PRUNE_AUTO unless
 *              FILAMENTS_PRUNE says otherwise).  A pruned fork runs the
 *              leaving branch at once, before the taking one, so this
 *              program explores in another order than the sequential one
 *              (f_fork(3), "Pruning"); on these instances it expands as
 *              many branches, give or take a few hundred (knapsack.h).
 *   fil-typed  f_fork_long/f_sync_long: each child returns its value, as
 *              a call would.
 *
 * No fork needs a fallback or a check (f_fork(3)): in a full deque the
 * child runs at once.  The untyped root is an f_fork from the main thread, joined by
 * f_parallel; the typed one is f_run_long.
 *
 * The best value so far is one word that every server reads before it
 * branches and raises with a compare-and-swap: relaxed, since it is only
 * a hint for cutting branches (a stale value cuts fewer); the answer comes
 * back through the joins and syncs, which order it.  The library's
 * counters over the run are kept for the output line.
 */
#include <atomic_ops.h>
#include <filaments.h>

#include "app.h"
#include "knapsack.h"

/* What every branch of the run shares: the problem and the best so far.
 * One search runs at a time, so they are the program's, not arguments. */
static const struct knapsack *problem;
static volatile AO_t best;

/* A branch's value taken so far and (fil) its result: all that differs
 * from branch to branch beyond i and cap, in its parent's frame. */
struct branch {
    long value;
    long result;  /* fil: the branch's best, or -1; written by the branch */
};

/* Raise the best so far to value, if it is lower. */
static void record(long value)
{
    AO_t old = AO_load(&best);
    while ((long)old < value && !AO_compare_and_swap(&best, old, (AO_t)value))
        old = AO_load(&best);
}

/* Branch (i, cap, value) alone: 1 and its result in *result if it is
 * complete or cut off, else 0. */
static inline int settled(long i, long cap, long value, long *result)
{
    long bound = knapsack_bound(problem, i, cap, value);
    if (bound == value) {
        record(value);
        *result = value;
        return 1;
    }
    if (bound <= (long)AO_load(&best)) {
        *result = -1;
        return 1;
    }
    return 0;
}

static void search(long i, long cap, void *arg)
{
    struct branch *b = arg;
    if (settled(i, cap, b->value, &b->result))
        return;
    const struct knapsack_item *it = &problem->item[i];
    struct branch leave = { b->value, -1 };
    struct branch take = { b->value + it->value, -1 };
    f_fork(search, i + 1, cap, &leave);
    if (it->weight <= cap)
        search(i + 1, cap - it->weight, &take);
    f_join();
    b->result = take.result > leave.result ? take.result : leave.result;
}

/* arg: the branch's value, in its parent's frame. */
static long search_typed(f_frame fr, long i, long cap, void *arg)
{
    long value = *(const long *)arg, result;
    if (settled(i, cap, value, &result))
        return result;
    const struct knapsack_item *it = &problem->item[i];
    long take = value + it->value;
    f_fork_long(&fr, search_typed, i + 1, cap, arg);  /* leave */
    long t = it->weight <= cap ? search_typed(fr, i + 1, cap - it->weight, &take) : -1;
    long l = f_sync_long(&fr, search_typed);
    return t > l ? t : l;
}

static void run(struct knapsack *k, int servers, int typed)
{
    struct branch root = { 0, -1 };
    problem = k;
    AO_store(&best, 0);
    app_check_f(f_initialize(servers), "f_initialize");
    if (typed) {
        app_check_f(f_run_long(search_typed, 0, k->capacity, &root.value, &k->best), "f_run_long");
    } else {
        app_check_f(f_fork(search, 0, k->capacity, &root), "f_fork");
        app_check_f(f_parallel(), "f_parallel");
        k->best = root.result;
    }
    app_stats_take(&k->stats);
    f_finalize();
}

void knapsack_fil(void *problem, int servers)
{
    run(problem, servers, 0);
}

void knapsack_fil_typed(void *problem, int servers)
{
    run(problem, servers, 1);
}
