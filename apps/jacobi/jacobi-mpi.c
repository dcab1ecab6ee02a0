/*
 * jacobi-mpi.c - Jacobi iteration on several MPI ranks: the grid's rows in
 * one block per rank, the halos of `old` exchanged every iteration
 * (grid-mpi.h has the programs).  Built where configure found MPI.
 */
#include "grid-mpi.h"
#include "jacobi.h"

static long size(void *problem)
{
    return ((struct jacobi *)problem)->n;
}

/* Grid 0 is `old`, whose halos an iteration reads; the check wants both. */
static double *grid(void *problem, int k)
{
    struct jacobi *g = problem;
    return k == 0 ? g->old : g->new;
}

static double rows(void *problem, int phase, long first, long end)
{
    struct jacobi *g = problem;
    return jacobi_rows(g->old, g->new, g->w, g->n, first, end);
}

static int end_iteration(void *problem, double maxdiff)
{
    return jacobi_end_iteration(problem, maxdiff);
}

static const struct grid_mpi_app jacobi_grid = { size, 1, 2, grid, rows, end_iteration };

void jacobi_mpi_fil(void *problem, int servers)
{
    grid_mpi_run(&jacobi_grid, problem, servers, GRID_MPI_FIL, 1);
}

void jacobi_mpi_fil_nooverlap(void *problem, int servers)
{
    grid_mpi_run(&jacobi_grid, problem, servers, GRID_MPI_FIL, 0);
}

void jacobi_mpi(void *problem, int servers)
{
    grid_mpi_run(&jacobi_grid, problem, servers, GRID_MPI_LOOP, 1);
}

void jacobi_mpi_nooverlap(void *problem, int servers)
{
    grid_mpi_run(&jacobi_grid, problem, servers, GRID_MPI_LOOP, 0);
}

static void collect(void *problem)
{
    grid_mpi_collect(&jacobi_grid, problem);
}

const struct app_mpi jacobi_mpi_driver = { app_mpi_begin, app_mpi_sync, collect, app_mpi_end };
