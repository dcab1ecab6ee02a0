/*
 * sor.h - red/black successive over-relaxation for Laplace's equation, the
 * paper's example of several barriers per iteration [paper §2.2].
 *
 * The grid of Jacobi (jacobi.h), but one grid, updated in place.  Each
 * iteration has two phases: the red points ((i + j) even), then the black
 * ones; a point moves from x to x + omega * (mean of its neighbours - x).
 * Red points have only black neighbours and vice versa, so the points of
 * one phase may be updated in any order.  maxdiff is the largest change of
 * the iteration, both colours.  Every program updates a point with
 * sor_point(), so all of them produce bitwise identical grids.
 */
#ifndef SOR_H
#define SOR_H

#include <math.h>

enum { SOR_RED = 0, SOR_BLACK = 1 };

struct sor {
    long n, w;       /* interior points per row; doubles per row (n + 2) */
    double *x;       /* the grid */
    double omega;    /* the over-relaxation factor, 0 < omega < 2 */
    long iters;      /* the most iterations */
    double epsilon;  /* stop once maxdiff < epsilon (0: run all iters) */
    long k;          /* iterations done */
    double maxdiff;  /* the largest change of the last iteration */
};

/* The first column of `colour` in row i: points (i, j), j = first, first + 2, ... <= n. */
static inline long sor_first(long i, int colour)
{
    return 1 + ((i + 1 + colour) & 1);
}

/* How many points of `colour` row i has. */
static inline long sor_count(long n, long i, int colour)
{
    long first = sor_first(i, colour);
    return first > n ? 0 : (n - first) / 2 + 1;
}

/* Update point (i, j) in place; return its change. */
static inline double sor_point(double *x, long w, long i, long j, double omega)
{
    double *p = x + i * w + j;
    double old = p[0];
    double v = old + omega * ((p[-w] + p[w] + p[-1] + p[1]) * 0.25 - old);
    p[0] = v;
    return fabs(v - old);
}

/* Update the points of `colour` in rows [first, end); return the largest change. */
static inline double sor_rows(struct sor *s, long first, long end, int colour)
{
    double maxdiff = 0.0;
    for (long i = first; i < end; ++i) {
        for (long j = sor_first(i, colour); j <= s->n; j += 2) {
            double d = sor_point(s->x, s->w, i, j, s->omega);
            if (d > maxdiff)
                maxdiff = d;
        }
    }
    return maxdiff;
}

/* The end of an iteration, run by one thread: record maxdiff, count the
 * iteration, return 1 if the run is over.  In sor-seq.c, which every
 * program links. */
int sor_end_iteration(struct sor *s, double maxdiff);

/* The programs: run(problem, servers), as struct app_impl wants. */
void sor_seq(void *problem, int servers);
void sor_cg(void *problem, int servers);
void sor_fil(void *problem, int servers);
void sor_fil_for(void *problem, int servers); /* sor-fil-for.c */
/* sor-mpi.c, where configure found MPI: mpirun starts one process per rank. */
void sor_mpi_fil(void *problem, int servers);
void sor_mpi_fil_nooverlap(void *problem, int servers);
void sor_mpi(void *problem, int servers);
void sor_mpi_nooverlap(void *problem, int servers);
struct app_mpi;
extern const struct app_mpi sor_mpi_driver;

#endif /* SOR_H */
