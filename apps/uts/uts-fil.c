/*
 * uts-fil.c - the Filaments unbalanced tree search: a fork/join filament
 * per node [paper §2.3, §4.5; Olivier].  A node computes its digest
 * from its parent's (which stays in the parent's frame until the parent's
 * join or syncs), forks a filament for each of its children, handing them
 * its own digest, and waits for them.
 *
 *   fil        f_fork/f_join; the library's pruning (F_PRUNE_AUTO unless
 *              FILAMENTS_PRUNE says otherwise), which this tree tests hard:
 *              a deep, narrow, unpredictable tree, where work appears and
 *              vanishes at random.  Every node counts itself in its
 *              server's slot.
 *   fil-typed  f_fork_long/f_sync_long: each child returns the node count
 *              of its subtree, and a node's count is 1 plus its children's,
 *              as a call would return it.  Leaves and depth are counted in
 *              the server's slot.
 *
 * No fork needs a fallback or a check (f_fork(3)): in a full deque the
 * child runs at once.  The untyped root is an f_fork from the main thread, joined by
 * f_parallel; the typed one is f_run_long.  The library's counters over
 * the run are kept for the output line (forks= pruned= steals= peak=).
 */
#include <filaments.h>

#include "app.h"
#include "uts.h"

static void visit(long k, long depth, void *arg)
{
    const struct uts_frame *parent = arg;
    struct uts_frame me = { .tree = parent->tree, .slot = parent->slot };
    uts_digest(me.tree, parent->digest, k, depth, me.digest);
    long n = uts_children(me.tree, me.digest, depth);
    struct uts_result *r = &me.slot[f_my_server()].r;
    r->nodes++;
    if (n == 0) {
        uts_leaf(r, depth);
        return;
    }
    for (long c = 0; c < n; ++c)
        f_fork(visit, c, depth + 1, &me);
    f_join();
}

static long visit_typed(f_frame fr, long k, long depth, void *arg)
{
    const struct uts_frame *parent = arg;
    struct uts_frame me = { .tree = parent->tree, .slot = parent->slot };
    uts_digest(me.tree, parent->digest, k, depth, me.digest);
    long n = uts_children(me.tree, me.digest, depth);
    if (n == 0) {
        uts_leaf(&me.slot[f_my_server()].r, depth);
        return 1;
    }
    for (long c = 0; c < n; ++c)
        f_fork_long(&fr, visit_typed, c, depth + 1, &me);
    long nodes = 1;
    for (long c = 0; c < n; ++c)
        nodes += f_sync_long(&fr, visit_typed);
    return nodes;
}

static void run(struct uts *p, int servers, int typed)
{
    app_check_f(f_initialize(servers), "f_initialize");
    struct uts_frame top = { .tree = &p->tree,
                             .slot = app_alloc((size_t)servers, sizeof *top.slot) };
    long nodes = 0;
    if (typed) {
        app_check_f(f_run_long(visit_typed, 0, 0, &top, &nodes), "f_run_long");
    } else {
        app_check_f(f_fork(visit, 0, 0, &top), "f_fork");
        app_check_f(f_parallel(), "f_parallel");
    }
    app_stats_take(&p->stats);
    f_finalize();
    p->r = uts_slots_sum(top.slot, servers);
    if (typed)
        p->r.nodes = nodes;
    app_free(top.slot);
}

void uts_fil(void *problem, int servers)
{
    run(problem, servers, 0);
}

void uts_fil_typed(void *problem, int servers)
{
    run(problem, servers, 1);
}
