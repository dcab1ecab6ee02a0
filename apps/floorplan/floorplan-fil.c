/*
 * floorplan-fil.c - the floorplan with Filaments (floorplan.h): a typed
 * fork/join filament per child [paper §2.3], F_FORK_LONG for every move
 * (floorplan_moves), then as many f_sync_long, each returning the least
 * area of its child's subtree, as a call would.  A child copies its
 * parent's board into its own frame and puts its cell there; the parent's
 * board, which the child reads, lives until the parent's syncs.  Where
 * the library prunes (F_PRUNE_AUTO unless FILAMENTS_PRUNE says otherwise),
 * f_pruning says so and the child runs the sequential search of its
 * subtree, where the peer's depth cut-off does [paper §4.5].  Typed forks
 * are not pruned, so the children run in the sequential search's order,
 * newest first at the syncs; pruned forks of f_fork_long_seq ran at the
 * fork, the largest box first, and ran 3.8 % more instructions (f_fork(3)).
 *
 * The root is the same task, run by F_RUN.  No fork needs a fallback or a
 * check (f_fork(3)).
 * The best area so far is shared as in the sequential search: one C11
 * atomic, read relaxed, lowered by a compare-and-swap loop.  The library's
 * counters over the run are kept for the output line.
 */
#include <limits.h>

#include <filaments.h>

#include "app.h"
#include "floorplan.h"

/* The best area so far, which every node reads: one search runs at a
 * time, so it is the program's, not an argument. */
static atomic_long best;

/* A node: cell k put in `choice` next to the parent's cell k - 1 (the
 * root, k = -1: the parent's state itself, the corner), and the least area
 * of the placements of the cells after it.  A typed task whose four
 * arguments fit in its slot (24 bytes: F_TASK(3)).  Where the library
 * prunes, the sequential search, with no forks. */
F_TASK_4(long, place, const struct floorplan *, p, const struct floorplan_state *, parent, int, k,
         int, choice)
{
    struct floorplan_state s;
    if (k < 0)
        s = *parent;
    else
        floorplan_put(p, parent, k, choice, &s);
    if (f_pruning() || k == p->n - 1)
        return floorplan_expand(p, &s, k, &best);
    long move[FLOORPLAN_CHOICES], least = LONG_MAX;
    int n = floorplan_moves(p, &s, k + 1, &best, move);
    /* From the last move back: syncs take the newest fork first, so the
     * smallest box runs first, as in the sequential search, and thieves
     * take the oldest, the largest boxes.  In order, 14 cells took twice
     * the forks at 1 server (359 646 against 186 834). */
    for (int m = n - 1; m >= 0; --m)
        F_FORK_LONG(&fr, place, p, &s, k + 1, move[m]);
    while (n-- > 0) {
        long area = f_sync_long(&fr, place);
        if (area < least)
            least = area;
    }
    return least;
}

void floorplan_fil(void *arg, int servers)
{
    struct floorplan *p = arg;
    atomic_store_explicit(&best, LONG_MAX, memory_order_relaxed);
    app_check_f(f_initialize(servers), "f_initialize");
    app_check_f(F_RUN(place, &p->area, p, &floorplan_corner, -1, 0), "F_RUN");
    app_stats_take(&p->stats);
    f_finalize();
}
