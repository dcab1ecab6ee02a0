/*
 * uts-omp.c - the unbalanced tree search with OpenMP tasks, a peer for the
 * benchmarks (doc/benchmarks.md, "Peers").  Built twice where both are
 * present: by gcc with -fopenmp into apps/uts/uts (libgomp: --impl=omp,
 * omp-fine), and by clang with -fopenmp=libomp into apps/uts/uts-llvm
 * (LLVM's libomp: --impl=omp-llvm, omp-llvm-fine).
 *
 *   omp       the OpenMP idiom: a task per child down to a depth cutoff
 *             (app_peer_depth: ceil(log2(servers)) + 8 levels), the
 *             sequential recursion (uts_visit) below it.  On this tree a
 *             depth says little about the work below it [Olivier]: this
 *             is the static division the benchmark was made to defeat.
 *   omp-fine  a task per child at every depth, as the Filaments programs
 *             fork them.
 *
 * Each thread counts in its own slot (omp_get_thread_num(), read before
 * any task scheduling point: tasks are tied, and the sequential recursion
 * has none).  The team is started and ended inside the timed run, as the
 * Filaments programs start and end their servers.
 */
#include <limits.h>

#include <omp.h>

#include "app.h"
#include "uts.h"

static void visit(const struct uts_frame *parent, long k, long depth, int cutoff)
{
    struct uts_result *r = &parent->slot[omp_get_thread_num()].r;
    if (depth >= cutoff) {
        uts_visit(parent->tree, parent->digest, k, depth, r);
        return;
    }
    struct uts_frame me = { .tree = parent->tree, .slot = parent->slot };
    uts_digest(me.tree, parent->digest, k, depth, me.digest);
    long n = uts_children(me.tree, me.digest, depth);
    r->nodes++;
    if (n == 0)
        uts_leaf(r, depth);
    for (long c = 0; c < n; ++c) {
#pragma omp task firstprivate(c, depth, cutoff) shared(me)
        visit(&me, c, depth + 1, cutoff);
    }
#pragma omp taskwait
}

static void run(struct uts *p, int servers, int cutoff)
{
    struct uts_frame top = { .tree = &p->tree,
                             .slot = app_alloc((size_t)servers, sizeof *top.slot) };
#pragma omp parallel num_threads(servers)
#pragma omp single
    visit(&top, 0, 0, cutoff);
    p->r = uts_slots_sum(top.slot, servers);
    app_free(top.slot);
}

void uts_omp(void *problem, int servers)
{
    run(problem, servers, app_peer_depth(UTS_PEER_LEVELS, servers));
}

void uts_omp_fine(void *problem, int servers)
{
    run(problem, servers, INT_MAX);
}
