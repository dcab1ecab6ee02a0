/*
 * jacobi-tbb.cc - the Jacobi iteration with oneTBB, a peer for the
 * benchmarks (doc/benchmarks.md, "Peers"): --impl=tbb.
 *
 * A task per point per iteration: parallel_for over the n x n interior
 * with a grain of one point and the simple partitioner, so every leaf of
 * TBB's splitting is one jacobi_point(), as --impl=fil has an iterative
 * filament per point.  Each arena thread keeps its largest change in its
 * own padded slot; the calling thread combines them between iterations.
 * The grids are bitwise the sequential program's.
 *
 * jacobi.h names a grid `new`, a C++ keyword: it is read here as `nw`
 * (the same layout).
 */
#include <cmath>

#include <tbb/blocked_range2d.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>

#include "app-tbb.h"

#define new nw
#include "jacobi.h"
#undef new

extern "C" void jacobi_tbb(void *problem, int servers)
{
    struct jacobi *g = static_cast<struct jacobi *>(problem);
    long n = g->n, w = g->w;
    app_tbb_slot *slot = static_cast<app_tbb_slot *>(
        app_alloc(static_cast<std::size_t>(servers), sizeof *slot));
    app_tbb_run(servers, [&] {
        double maxdiff;
        do {
            const double *old = g->old;
            double *nw = g->nw;
            tbb::parallel_for(
                tbb::blocked_range2d<long>(1, n + 1, 1, 1, n + 1, 1),
                [=](const tbb::blocked_range2d<long> &r) {
                    app_tbb_slot *s = &slot[app_tbb_thread()];
                    for (long i = r.rows().begin(); i < r.rows().end(); ++i)
                        for (long j = r.cols().begin(); j < r.cols().end(); ++j) {
                            double d = jacobi_point(old, nw, w, i, j);
                            if (d > s->v)
                                s->v = d;
                        }
                },
                tbb::simple_partitioner());
            maxdiff = 0.0;
            for (int t = 0; t < servers; ++t) {
                if (slot[t].v > maxdiff)
                    maxdiff = slot[t].v;
                slot[t].v = 0.0;
            }
        } while (!jacobi_end_iteration(g, maxdiff));
    });
    app_free(slot);
}
