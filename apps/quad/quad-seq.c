/*
 * quad-seq.c - the sequential adaptive quadrature: recursion, no parallel
 * constructs [paper §2.3, §3.3].
 *
 * quad_rec() is also the sequential code of every parallel program: the
 * static program's segments, the bag's pruned tasks, fil-seq's sequential
 * version and the peers below their cutoff.
 */
#include "quad.h"

void quad_interval(const struct quad *q, int t, int parts, struct quad_interval *iv)
{
    iv->a = t == 0 ? q->a : q->a + (q->b - q->a) * t / parts;
    iv->b = t + 1 == parts ? q->b : q->a + (q->b - q->a) * (t + 1) / parts;
    iv->fa = quad_f(iv->a);
    iv->fb = quad_f(iv->b);
    iv->area = (iv->fa + iv->fb) * (iv->b - iv->a) / 2;
}

double quad_rec(double a, double b, double fa, double fb, double area, double eps,
                long *intervals)
{
    double m, fm, left, right;
    if (quad_split(a, b, fa, fb, area, eps, &m, &fm, &left, &right)) {
        ++*intervals;
        return left + right;
    }
    double l = quad_rec(a, m, fa, fm, left, eps, intervals);
    double r = quad_rec(m, b, fm, fb, right, eps, intervals);
    return l + r;
}

double quad_segment(const struct quad *q, int t, int parts, long *intervals)
{
    struct quad_interval iv;
    quad_interval(q, t, parts, &iv);
    return quad_rec(iv.a, iv.b, iv.fa, iv.fb, iv.area, q->epsilon, intervals);
}

/* The whole interval; or, as --verify's reference for the static program,
 * its segments added in order (quad-common.c). */
void quad_seq(void *problem, int servers)
{
    struct quad *q = problem;
    long n = 0;
    double area = quad_segment(q, 0, q->segments, &n);
    for (int t = 1; t < q->segments; ++t)
        area += quad_segment(q, t, q->segments, &n);
    q->r.area = area;
    q->r.intervals = n;
}
