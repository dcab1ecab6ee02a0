/*
 * quad-omp.c - adaptive quadrature with OpenMP tasks, a peer for the
 * benchmarks (doc/benchmarks.md, "Peers").  Built twice where both are present: by gcc
 * with -fopenmp into apps/quad/quad (libgomp: --impl=omp, omp-fine), and
 * by clang with -fopenmp=libomp into apps/quad/quad-llvm (LLVM's libomp:
 * --impl=omp-llvm, omp-llvm-fine).  Two OpenMP runtimes cannot share one
 * process, hence two programs.
 *
 *   omp       the OpenMP idiom: the left half a task, the right half
 *             computed by the current task, taskwait; down to a depth
 *             cutoff (app_peer_depth: ceil(log2(servers)) + 10 levels,
 *             deep enough that the heavy right end is cut into pieces much
 *             smaller than a thread's share), quad_rec() below it.
 *   omp-fine  a task per interval, both halves, as --impl=fil forks them.
 *
 * The areas are added as left + right, so the result is bitwise the
 * sequential recursion's.  The team is started and ended inside the timed
 * run, as the Filaments programs start and end their servers.
 */
#include <omp.h>

#include "app.h"
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
#pragma omp task shared(l, nl) firstprivate(a, m, fa, fm, left, eps, depth, cutoff)
    l = quad_cut(a, m, fa, fm, left, eps, depth + 1, cutoff, &nl);
    r = quad_cut(m, b, fm, fb, right, eps, depth + 1, cutoff, intervals);
#pragma omp taskwait
    *intervals += nl;
    return l + r;
}

static double quad_fine(double a, double b, double fa, double fb, double area, double eps,
                        long *intervals)
{
    double m, fm, left, right, l, r;
    long nl = 0, nr = 0;
    if (quad_split(a, b, fa, fb, area, eps, &m, &fm, &left, &right)) {
        *intervals = 1;
        return left + right;
    }
#pragma omp task shared(l, nl) firstprivate(a, m, fa, fm, left, eps)
    l = quad_fine(a, m, fa, fm, left, eps, &nl);
#pragma omp task shared(r, nr) firstprivate(m, b, fm, fb, right, eps)
    r = quad_fine(m, b, fm, fb, right, eps, &nr);
#pragma omp taskwait
    *intervals = nl + nr;
    return l + r;
}

void quad_omp(void *problem, int servers)
{
    struct quad *q = problem;
    struct quad_interval iv;
    int cutoff = app_peer_depth(QUAD_PEER_LEVELS, servers);
    long n = 0;
    quad_interval(q, 0, 1, &iv);
#pragma omp parallel num_threads(servers)
#pragma omp single
    q->r.area = quad_cut(iv.a, iv.b, iv.fa, iv.fb, iv.area, q->epsilon, 0, cutoff, &n);
    q->r.intervals = n;
}

void quad_omp_fine(void *problem, int servers)
{
    struct quad *q = problem;
    struct quad_interval iv;
    long n = 0;
    quad_interval(q, 0, 1, &iv);
#pragma omp parallel num_threads(servers)
#pragma omp single
    q->r.area = quad_fine(iv.a, iv.b, iv.fa, iv.fb, iv.area, q->epsilon, &n);
    q->r.intervals = n;
}
