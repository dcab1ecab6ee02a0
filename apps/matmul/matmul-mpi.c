/*
 * matmul-mpi.c - matrix multiplication on several MPI ranks [paper §3.1]:
 * the rows of c in one strip per rank (app_mpi_strip), gathered to rank 0
 * after the timed run.  Built where configure found MPI.
 *
 *   mpi-fil  Filaments inside each rank: one RTC filament per inner
 *            product of the rank's strip, each server creating its part of
 *            it, as --impl=fil does for all of c;
 *   mpi      one rank per core, the coarse-grain loop over its strip.
 *
 * Every rank sets up the whole of a and bt (the driver's setup, the same
 * pseudo-random numbers everywhere), so nothing travels before the run, and
 * every entry is matmul_inner(): c is bitwise the sequential program's at
 * every rank count.  Each rank needs one row at least.
 */
#include "app-mpi.h"
#include "matmul.h"

void matmul_mpi_fil(void *problem, int servers)
{
    struct matmul *m = problem;
    long first, end;
    app_mpi_strip(0, m->n, m->n, 1, &first, &end);
    matmul_fil_rows(m, servers, first, end);
}

void matmul_mpi(void *problem, int servers)
{
    const struct matmul *m = problem;
    long first, end;
    app_mpi_strip(0, m->n, m->n, 1, &first, &end);
    matmul_rows(m, first, end);
}

static void collect(void *problem)
{
    struct matmul *m = problem;
    app_mpi_gather_strips(m->c, 0, m->n, m->n);
}

const struct app_mpi matmul_mpi_driver = { app_mpi_begin, app_mpi_sync, collect, app_mpi_end };
