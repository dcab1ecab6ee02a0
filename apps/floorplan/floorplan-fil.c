/*
 * floorplan-fil.c - the floorplan with Filaments (floorplan.h): a typed
 * fork/join filament per child [paper §2.3], F_FORK_LONG_SEQ for every
 * move (floorplan_moves), then as many f_sync_long, each returning the
 * least area of its child's subtree, as a call would.  A child copies its
 * parent's board into its own frame and puts its cell there; the parent's
 * board, which the child reads, lives until the parent's syncs.  The
 * library prunes these forks as it prunes untyped ones (F_PRUNE_AUTO
 * unless FILAMENTS_PRUNE says otherwise): a pruned one calls child_seq,
 * the sequential search of the subtree, as the peer's cut-off does, and
 * keeps its value for the sync [paper §4.5].
 *
 * The root is f_run_long.  No fork needs a fallback or a check (f_fork(3)).
 * The best area so far is shared as in the sequential search: one C11
 * atomic, read relaxed, lowered by a compare-and-swap loop.  The library's
 * counters over the run are kept for the output line.
 */
#include <limits.h>

#include <filaments.h>

#include "app.h"
#include "floorplan.h"

/* What every node of the run shares: the problem and the best area so far.
 * One search runs at a time, so they are the program's, not arguments. */
static const struct floorplan *problem;
static atomic_long best;

static long expand(f_frame fr, const struct floorplan_state *s, long k);

/* Cell k in `choice` after the parent's state, and what follows: a typed
 * task whose three arguments travel in its slot (F_TASK(3)). */
F_TASK_3(long, child, const struct floorplan_state *, parent, long, k, long, choice)
{
    struct floorplan_state s;
    floorplan_put(problem, parent, k, choice, &s);
    return expand(fr, &s, k);
}

/* child's sequential version, which the library calls where it prunes the
 * fork: the sequential search below, with no forks. */
F_TASK_3(long, child_seq, const struct floorplan_state *, parent, long, k, long, choice)
{
    struct floorplan_state s;
    floorplan_put(problem, parent, k, choice, &s);
    return floorplan_expand(problem, &s, k, &best);
}

/* floorplan_expand with a fork per child: cells k + 1 .. n - 1 after s. */
static long expand(f_frame fr, const struct floorplan_state *s, long k)
{
    if (k == problem->n - 1)
        return floorplan_leaf(s, &best);
    long move[FLOORPLAN_CHOICES];
    int n = floorplan_moves(problem, s, k + 1, &best, move);
    /* From the last move back: syncs take the newest fork first, so the
     * smallest box runs first, as in the sequential search, and thieves
     * take the oldest, the largest boxes.  In order, 14 cells took twice
     * the forks at 1 server (359 646 against 186 834). */
    for (int m = n - 1; m >= 0; --m)
        F_FORK_LONG_SEQ(&fr, child, child_seq, s, k + 1, move[m]);
    long least = LONG_MAX;
    while (n-- > 0) {
        long area = f_sync_long(&fr, child);
        if (area < least)
            least = area;
    }
    return least;
}

static long root(f_frame fr, long unused, long unused2, void *arg)
{
    return expand(fr, arg, -1);
}

void floorplan_fil(void *arg, int servers)
{
    struct floorplan *p = arg;
    problem = p;
    atomic_store_explicit(&best, LONG_MAX, memory_order_relaxed);
    app_check_f(f_initialize(servers), "f_initialize");
    app_check_f(f_run_long(root, 0, 0, (void *)&floorplan_corner, &p->area), "f_run_long");
    app_stats_take(&p->stats);
    f_finalize();
}
