/*
 * quad-tbb.cc - adaptive quadrature with oneTBB, a peer for the benchmarks
 * (doc/benchmarks.md, "Peers"): --impl=tbb.
 *
 * The TBB idiom: tbb::task_group runs the left half as a task while the
 * caller integrates the right half, then waits; down to the same depth
 * cutoff as the OpenMP peer (app_peer_depth), with quad_rec() below it.
 * The areas are added as left + right, so the result is bitwise the
 * sequential recursion's.  A task_arena of `servers` threads, allowed by a
 * global_control, runs it; both are made and destroyed inside the timed
 * run, as the Filaments programs start and end their servers.
 */
#include <tbb/task_group.h>

#include "app-tbb.h"
#include "quad.h"

static double quad_cut(double a, double b, double fa, double fb, double area, double eps,
                       int depth, int cutoff, long *intervals)
{
    double m, fm, left, right, l, r;
    long nl = 0;
    if (depth >= cutoff)
        return quad_rec(a, b, fa, fb, area, eps, intervals);
    if (quad_split(a, b, fa, fb, area, eps, &m, &fm, &left, &right)) {
        ++*intervals;
        return left + right;
    }
    tbb::task_group g;
    g.run([&] { l = quad_cut(a, m, fa, fm, left, eps, depth + 1, cutoff, &nl); });
    r = quad_cut(m, b, fm, fb, right, eps, depth + 1, cutoff, intervals);
    g.wait();
    *intervals += nl;
    return l + r;
}

extern "C" void quad_tbb(void *problem, int servers)
{
    struct quad *q = static_cast<struct quad *>(problem);
    struct quad_interval iv;
    int cutoff = app_peer_depth(QUAD_PEER_LEVELS, servers);
    long n = 0;
    quad_interval(q, 0, 1, &iv);
    app_tbb_run(servers, [&] {
        q->r.area = quad_cut(iv.a, iv.b, iv.fa, iv.fb, iv.area, q->epsilon, 0, cutoff, &n);
    });
    q->r.intervals = n;
}
