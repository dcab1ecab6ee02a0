/*
 * grid-mpi.h - Jacobi and red/black SOR on several MPI ranks (grid-mpi.c):
 * the rows in one block per rank, the halo rows exchanged before every
 * phase, the largest change reduced across the ranks once per iteration.
 * The app says what a phase computes; this file does the rest, four ways:
 *
 *   mpi-fil            Filaments inside each rank: the rows that need no
 *                      halo are iterative filaments; barrier code reduces
 *                      across the ranks and posts the next phase's halos;
 *                      the first and last rows are filaments that wait for
 *                      their halo (f_mpi_rtc_thread(3)) and run as it comes;
 *   mpi-fil-nooverlap  the same, but barrier code waits for the halos and
 *                      every row is an iterative filament;
 *   mpi                one rank per core, the coarse-grain loop: post, the
 *                      inner rows, wait, the first and last rows;
 *   mpi-nooverlap      post, wait, then every row.
 *
 * Each rank holds the whole grid (the apps' setup is the driver's) but
 * computes, sends and receives its own block only; collect() gathers the
 * blocks to rank 0.  Every point is computed by the app's own expression
 * and the largest change is a maximum, exact in any order, so the result
 * is bitwise the sequential program's at every rank count.
 */
#ifndef GRID_MPI_H
#define GRID_MPI_H

#include "app-mpi.h"

struct grid_mpi_app {
    long (*n)(void *problem);  /* interior rows (and columns) */
    int phases;                /* per iteration: Jacobi 1, SOR 2 (red, black) */
    int ngrids;                /* grids to gather; grid 0 is the one whose halos a phase reads */
    double *(*grid)(void *problem, int k);
    /* Compute rows [first, end) of `phase`; return their largest change. */
    double (*rows)(void *problem, int phase, long first, long end);
    /* After the last phase, with the largest change of all ranks: 1 if the run is over. */
    int (*end_iteration)(void *problem, double maxdiff);
};

enum grid_mpi_kind { GRID_MPI_FIL, GRID_MPI_LOOP };

/* Run the iterations on this rank's block; `overlap`: compute the rows
 * that need no halo while the halos travel.  A rank count that leaves some
 * rank fewer than two rows is a bad option (exit status 2). */
void grid_mpi_run(const struct grid_mpi_app *app, void *problem, int servers,
                  enum grid_mpi_kind kind, int overlap);

/* Gather every rank's block of each grid to rank 0 (struct app_mpi's collect). */
void grid_mpi_collect(const struct grid_mpi_app *app, void *problem);

#endif /* GRID_MPI_H */
