/*
 * sor-mpi.c - red/black SOR on several MPI ranks: the grid's rows in one
 * block per rank, the halos exchanged before each colour's phase, two per
 * iteration (grid-mpi.h has the programs).  Built where configure found MPI.
 */
#include "grid-mpi.h"
#include "sor.h"

static long size(void *problem)
{
    return ((struct sor *)problem)->n;
}

static double *grid(void *problem, int k)
{
    return ((struct sor *)problem)->x;
}

/* Phase 0 is red, phase 1 black (SOR_RED, SOR_BLACK). */
static double rows(void *problem, int phase, long first, long end)
{
    return sor_rows(problem, first, end, phase);
}

static int end_iteration(void *problem, double maxdiff)
{
    return sor_end_iteration(problem, maxdiff);
}

static const struct grid_mpi_app sor_grid = { size, 2, 1, grid, rows, end_iteration };

void sor_mpi_fil(void *problem, int servers)
{
    grid_mpi_run(&sor_grid, problem, servers, GRID_MPI_FIL, 1);
}

void sor_mpi_fil_nooverlap(void *problem, int servers)
{
    grid_mpi_run(&sor_grid, problem, servers, GRID_MPI_FIL, 0);
}

void sor_mpi(void *problem, int servers)
{
    grid_mpi_run(&sor_grid, problem, servers, GRID_MPI_LOOP, 1);
}

void sor_mpi_nooverlap(void *problem, int servers)
{
    grid_mpi_run(&sor_grid, problem, servers, GRID_MPI_LOOP, 0);
}

static void collect(void *problem)
{
    grid_mpi_collect(&sor_grid, problem);
}

const struct app_mpi sor_mpi_driver = { app_mpi_begin, app_mpi_sync, collect, app_mpi_end };
