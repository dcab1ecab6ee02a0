/*
 * quad.h - adaptive quadrature of f(x) = exp(x) * sin(x) over [a, b]
 * [paper §2.3, §3.3].
 *
 * The rule, one level of which is quad_split(): halve [a, b] at m, evaluate
 * f once at m, approximate each half by a trapezoid; if the halves' sum is
 * within epsilon of the whole's area, it is the interval's area (a leaf);
 * otherwise each half is integrated the same way and the interval's area is
 * left + right.  f is evaluated once per point: the ends' values travel
 * with each interval, as do their areas.
 *
 * Every program runs quad_split(), the same expression in the same order,
 * and adds each interval's two results as left + right, so the tree of
 * sums does not depend on the schedule: every program's area is bitwise
 * that of the sequential recursion quad_rec() (quad-seq.c), and so is the
 * number of leaf intervals.  Except the static program, which integrates
 * `servers` equal segments and adds their areas in segment order: its
 * segment ends change the subdivision, so its area is that of the
 * sequential recursion over the same segments (struct quad's `segments`):
 * its line says segments=N, and `--impl=seq --segments=N` computes it.
 *
 * Included by the C++ peer (quad-tbb.cc), hence the extern "C".
 */
#ifndef QUAD_H
#define QUAD_H

#include <math.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The result: compared bitwise by --verify and digested. */
struct quad_result {
    double area;
    long intervals;  /* leaves of the recursion */
};

struct quad {
    double a, b;     /* the interval: [1, size], as the paper's "quad size 27" */
    double epsilon;  /* "close enough" */
    int segments;    /* the result is the sum over this many equal segments (1: none) */
    struct quad_result r;
};

/* One interval: its ends, f at its ends, and its trapezoid's area. */
struct quad_interval {
    double a, b, fa, fb, area;
};

static inline double quad_f(double x)
{
    return exp(x) * sin(x);
}

/*
 * One level of the rule on [a, b]: set the midpoint m, fm = f(m) and the
 * areas of the halves; return 1 if their sum is close enough to `area`
 * (the interval is a leaf, of area *left + *right).
 */
static inline int quad_split(double a, double b, double fa, double fb, double area, double eps,
                             double *m, double *fm, double *left, double *right)
{
    *m = (a + b) / 2;
    *fm = quad_f(*m);
    *left = (fa + *fm) * (*m - a) / 2;
    *right = (*fm + fb) * (b - *m) / 2;
    return fabs(*left + *right - area) < eps;
}

/* quad-seq.c: segment t of `parts` equal segments of [q->a, q->b]
 * (t = 0, parts = 1: the whole interval), ready for the recursion. */
void quad_interval(const struct quad *q, int t, int parts, struct quad_interval *iv);

/* quad-seq.c: the sequential recursion on one interval; adds its leaves
 * to *intervals and returns its area.  Every program's sequential code. */
double quad_rec(double a, double b, double fa, double fb, double area, double eps,
                long *intervals);

/* Segment t of `parts`, by the sequential recursion; adds to *intervals. */
double quad_segment(const struct quad *q, int t, int parts, long *intervals);

/* quad-fil.c: the area of one interval by a fork/join filament per
 * interval, f_fork's pruning or (use_seq) f_fork_seq's, in one f_parallel
 * run on the servers the caller started; adds its leaves to *intervals. */
double quad_fil_area(const struct quad_interval *iv, double eps, long use_seq, long *intervals);

/* The peers' task cutoff: intervals at recursion depth >=
 * app_peer_depth(QUAD_PEER_LEVELS, servers) run quad_rec() instead of
 * making tasks. */
#define QUAD_PEER_LEVELS 10

/* The programs: run(problem, servers), as struct app_impl wants. */
void quad_seq(void *problem, int servers);
void quad_static(void *problem, int servers);    /* quad-cg.c */
void quad_bag(void *problem, int servers);
void quad_fil(void *problem, int servers);       /* quad-fil.c */
void quad_fil_seq(void *problem, int servers);
void quad_omp(void *problem, int servers);       /* quad-omp.c: libgomp, or libomp in quad-llvm */
void quad_omp_fine(void *problem, int servers);
void quad_tbb(void *problem, int servers);       /* quad-tbb.cc */
/* quad-mpi.c, where configure found MPI: mpirun starts one process per rank. */
void quad_mpi_fil(void *problem, int servers);
void quad_mpi(void *problem, int servers);
struct app_mpi;
extern const struct app_mpi quad_mpi_driver;

#ifdef __cplusplus
}
#endif
#endif /* QUAD_H */
