/*
 * uts-tbb.cc - the unbalanced tree search with oneTBB, a peer for the
 * benchmarks (doc/benchmarks.md, "Peers"): --impl=tbb.
 *
 * The TBB idiom: tbb::task_group runs each child as a task and the node
 * waits for them; down to the same depth cutoff as the OpenMP peer
 * (app_peer_depth), with the sequential recursion below it.  Each thread
 * counts in its own slot (this_task_arena::current_thread_index(), read
 * before the node waits, where the thread may run other tasks).  A
 * task_arena of `servers` threads, allowed by a global_control, runs it;
 * both are made and destroyed inside the timed run.
 */
#include <tbb/task_group.h>

#include "app-tbb.h"
#include "uts.h"

static void visit(const struct uts_frame *parent, long k, long depth, int cutoff)
{
    struct uts_result *r = &parent->slot[app_tbb_thread()].r;
    if (depth >= cutoff) {
        uts_visit(parent->tree, parent->digest, k, depth, r);
        return;
    }
    struct uts_frame me = { {}, parent->tree, parent->slot };
    uts_digest(me.tree, parent->digest, k, depth, me.digest);
    long n = uts_children(me.tree, me.digest, depth);
    r->nodes++;
    if (n == 0)
        uts_leaf(r, depth);
    tbb::task_group g;
    for (long c = 0; c < n; ++c)
        g.run([&me, c, depth, cutoff] { visit(&me, c, depth + 1, cutoff); });
    g.wait();
}

extern "C" void uts_tbb(void *problem, int servers)
{
    struct uts *p = static_cast<struct uts *>(problem);
    struct uts_frame top = { {}, &p->tree,
                             static_cast<struct uts_slot *>(app_alloc(servers, sizeof(uts_slot))) };
    int cutoff = app_peer_depth(UTS_PEER_LEVELS, servers);
    app_tbb_run(servers, [&] { visit(&top, 0, 0, cutoff); });
    p->r = uts_slots_sum(top.slot, servers);
    app_free(top.slot);
}
