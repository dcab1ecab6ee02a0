/*
 * knapsack-fil.c - the Filaments branch and bound: a fork/join filament
 * per branch (knapsack.h).  A branch that is neither complete nor cut off
 * forks the branch that leaves item i and, if the item fits, the one that
 * takes it, and returns the better of their values.
 *
 *   fil        f_fork/f_join, each child's value in a struct in the
 *              parent's frame; the library's pruning (F_PRUNE_AUTO unless
 *              FILAMENTS_PRUNE says otherwise).
 *   fil-typed  f_fork_long/f_sync_long: each child returns its value, as
 *              a call would.
 *
 * No fork needs a fallback (f_fork(3)): in a full deque the child runs at
 * once.  A typed fork fails only when no memory is left for a child's kept
 * value, and then the program stops rather than sync what it did not
 * fork.  The untyped root is an f_fork from the main thread, joined by
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

/* A branch's value taken so far, what all branches share, and (fil) its result. */
struct branch {
    const struct knapsack *k;
    volatile AO_t *best;
    long value;
    long result;  /* fil: the branch's best, or -1; written by the branch */
};

/* Raise the best so far to value, if it is lower. */
static void record(volatile AO_t *best, long value)
{
    AO_t old = AO_load(best);
    while ((long)old < value && !AO_compare_and_swap(best, old, (AO_t)value))
        old = AO_load(best);
}

/* Branch (i, cap, b->value) alone: 1 and its result in *result if it is
 * complete or cut off, else 0. */
static int settled(const struct branch *b, long i, long cap, long *result)
{
    long bound = knapsack_bound(b->k, i, cap, b->value);
    if (bound == b->value) {
        record(b->best, b->value);
        *result = b->value;
        return 1;
    }
    if (bound <= (long)AO_load(b->best)) {
        *result = -1;
        return 1;
    }
    return 0;
}

static void search(long i, long cap, void *arg)
{
    struct branch *b = arg;
    if (settled(b, i, cap, &b->result))
        return;
    const struct knapsack_item *it = &b->k->item[i];
    struct branch leave = { b->k, b->best, b->value, -1 };
    struct branch take = { b->k, b->best, b->value + it->value, -1 };
    f_fork(search, i + 1, cap, &leave);
    if (it->weight <= cap)
        f_fork(search, i + 1, cap - it->weight, &take);
    f_join();
    b->result = take.result > leave.result ? take.result : leave.result;
}

static long search_typed(f_frame fr, long i, long cap, void *arg)
{
    const struct branch *b = arg;
    long result;
    if (settled(b, i, cap, &result))
        return result;
    const struct knapsack_item *it = &b->k->item[i];
    struct branch leave = { b->k, b->best, b->value, -1 };
    struct branch take = { b->k, b->best, b->value + it->value, -1 };
    int fits = it->weight <= cap;
    app_check_f(f_fork_long(&fr, search_typed, i + 1, cap, &leave), "f_fork_long");
    if (fits)
        app_check_f(f_fork_long(&fr, search_typed, i + 1, cap - it->weight, &take), "f_fork_long");
    long t = fits ? f_sync_long(&fr, search_typed) : -1;  /* syncs: the latest fork first */
    long l = f_sync_long(&fr, search_typed);
    return t > l ? t : l;
}

static void run(struct knapsack *k, int servers, int typed)
{
    struct f_stats st;
    volatile AO_t best = 0;
    struct branch root = { k, &best, 0, -1 };
    app_check_f(f_initialize(servers), "f_initialize");
    if (typed) {
        app_check_f(f_run_long(search_typed, 0, k->capacity, &root, &k->best), "f_run_long");
    } else {
        app_check_f(f_fork(search, 0, k->capacity, &root), "f_fork");
        app_check_f(f_parallel(), "f_parallel");
        k->best = root.result;
    }
    app_check_f(f_get_stats(F_ANY, &st), "f_get_stats");
    f_finalize();
    k->have_stats = 1;
    k->forks = st.forks;
    k->pruned = st.pruned_forks;
    k->steals = st.steals;
    k->peak = st.peak_live_forks;
}

void knapsack_fil(void *problem, int servers)
{
    run(problem, servers, 0);
}

void knapsack_fil_typed(void *problem, int servers)
{
    run(problem, servers, 1);
}
