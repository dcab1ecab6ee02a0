/*
 * jacobi.h - Jacobi iteration for Laplace's equation [paper §2.2, §3.2].
 *
 * An n x n interior with fixed boundary values, stored in (n+2) x (n+2)
 * grids, rows of w = n + 2 doubles.  Each iteration computes every interior
 * point of `new` from its four neighbours in `old` and the largest change,
 * maxdiff; it stops after `iters` iterations or when maxdiff < epsilon, and
 * otherwise swaps the grids.  Every program computes a point with
 * jacobi_point(), the same expression in the same order, and maxdiff is a
 * maximum (exact in any order), so all of them produce bitwise identical
 * grids and iteration counts.
 *
 * Included by the C++ peer (jacobi-tbb.cc), hence the extern "C".
 */
#ifndef JACOBI_H
#define JACOBI_H

#include <math.h>

#ifdef __cplusplus
extern "C" {
#endif

struct jacobi {
    long n, w;          /* interior points per row; doubles per row (n + 2) */
    double *old, *new;  /* the grids; after the run, `new` is the result */
    long iters;         /* the most iterations */
    double epsilon;     /* stop once maxdiff < epsilon (0: run all iters) */
    long k;             /* iterations done */
    double maxdiff;     /* the largest change of the last iteration */
};

/* The new value of interior point (i, j): the mean of its old neighbours. */
static inline double jacobi_value(const double *old, long w, long i, long j)
{
    const double *o = old + i * w + j;
    return (o[-w] + o[w] + o[-1] + o[1]) * 0.25;
}

/* Update point (i, j) of `new`; return its change. */
static inline double jacobi_point(const double *old, double *new, long w, long i, long j)
{
    double v = jacobi_value(old, w, i, j);
    new[i * w + j] = v;
    return fabs(v - old[i * w + j]);
}

/* Update rows [first, end) of `new`; return their largest change. */
static inline double jacobi_rows(const double *old, double *new, long w, long n, long first,
                                 long end)
{
    double maxdiff = 0.0;
    for (long i = first; i < end; ++i) {
        for (long j = 1; j <= n; ++j) {
            double d = jacobi_point(old, new, w, i, j);
            if (d > maxdiff)
                maxdiff = d;
        }
    }
    return maxdiff;
}

/*
 * The end of an iteration, for every program (run by one thread): record
 * maxdiff, count the iteration, and return 1 if the run is over; otherwise
 * swap the grids and return 0.  In jacobi-seq.c, which every program links.
 */
int jacobi_end_iteration(struct jacobi *g, double maxdiff);

/* The programs: run(problem, servers), as struct app_impl wants. */
void jacobi_seq(void *problem, int servers);
void jacobi_calls(void *problem, int servers);
void jacobi_cg(void *problem, int servers);
void jacobi_fil(void *problem, int servers);
void jacobi_fil_norange(void *problem, int servers);
void jacobi_fil_main(void *problem, int servers);
void jacobi_fil_for(void *problem, int servers); /* jacobi-fil-for.c */
void jacobi_omp(void *problem, int servers);     /* jacobi-omp.c: libgomp, or libomp in -llvm */
/* omp for over the rows: static (equal blocks), dynamic (a row at a time) */
void jacobi_omp_for(void *problem, int servers);
void jacobi_omp_dynamic(void *problem, int servers);
void jacobi_tbb(void *problem, int servers);     /* jacobi-tbb.cc */
/* jacobi-mpi.c, where configure found MPI: mpirun starts one process per rank. */
void jacobi_mpi_fil(void *problem, int servers);
void jacobi_mpi_fil_nooverlap(void *problem, int servers);
void jacobi_mpi(void *problem, int servers);
void jacobi_mpi_nooverlap(void *problem, int servers);
struct app_mpi;
extern const struct app_mpi jacobi_mpi_driver;

#ifdef __cplusplus
}
#endif

#endif /* JACOBI_H */
