/*
 * quad-fil.c - the Filaments adaptive quadrature [paper §2.3, §3.3]: a
 * fork/join filament per interval.  An interval that is not a leaf forks
 * a filament for each half, with a struct in its own frame for each child's
 * arguments and result, joins them, and adds left + right.
 *
 *   fil      f_fork; the library's pruning threshold (F_PRUNE_AUTO unless
 *            FILAMENTS_PRUNE says otherwise), so a pruned fork is a call.
 *   fil-seq  f_fork_seq naming the sequential version (quad_rec through
 *            seq_version()): a pruned fork runs its whole subtree as the
 *            sequential program does [paper §4.5].
 *
 * The root is a fork from the main thread of the whole interval, joined by
 * f_parallel (quad_fil_area, which the MPI ranks of --impl=mpi-fil run on
 * each interval they are handed: quad-mpi.c).
 */
#include <filaments.h>

#include "app.h"
#include "quad.h"

/* A filament's arguments and, once it is done, its result. */
struct task {
    struct quad_interval iv;
    double eps;
    double area;
    long intervals;
};

static void seq_version(long unused, long unused2, void *arg)
{
    struct task *t = arg;
    t->intervals = 0;
    t->area = quad_rec(t->iv.a, t->iv.b, t->iv.fa, t->iv.fb, t->iv.area, t->eps, &t->intervals);
}

/* Fork a child: with f_fork_seq if `seq`; if the library refuses, call it. */
static void quad_fork(long use_seq, long unused, void *arg)
{
    struct task *t = arg;
    double m, fm, left, right;
    if (quad_split(t->iv.a, t->iv.b, t->iv.fa, t->iv.fb, t->iv.area, t->eps, &m, &fm, &left,
                   &right)) {
        t->area = left + right;
        t->intervals = 1;
        return;
    }
    struct task c[2] = {
        { { t->iv.a, m, t->iv.fa, fm, left }, t->eps, 0.0, 0 },
        { { m, t->iv.b, fm, t->iv.fb, right }, t->eps, 0.0, 0 },
    };
    for (int k = 0; k < 2; ++k) {
        int rc = use_seq ? f_fork_seq(quad_fork, seq_version, use_seq, 0, &c[k])
                         : f_fork(quad_fork, use_seq, 0, &c[k]);
        if (rc < 0)
            quad_fork(use_seq, 0, &c[k]);
    }
    f_join();
    t->area = c[0].area + c[1].area;
    t->intervals = c[0].intervals + c[1].intervals;
}

double quad_fil_area(const struct quad_interval *iv, double eps, long use_seq, long *intervals)
{
    struct task root = { .iv = *iv, .eps = eps };
    app_check_f(f_fork(quad_fork, use_seq, 0, &root), "f_fork");
    app_check_f(f_parallel(), "f_parallel");
    *intervals += root.intervals;
    return root.area;
}

static void run(struct quad *q, int servers, long use_seq)
{
    struct quad_interval iv;
    quad_interval(q, 0, 1, &iv);
    long n = 0;
    app_check_f(f_initialize(servers), "f_initialize");
    q->r.area = quad_fil_area(&iv, q->epsilon, use_seq, &n);
    f_finalize();
    q->r.intervals = n;
}

void quad_fil(void *problem, int servers)
{
    run(problem, servers, 0);
}

void quad_fil_seq(void *problem, int servers)
{
    run(problem, servers, 1);
}
