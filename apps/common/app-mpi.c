/*
 * app-mpi.c - the MPI programs' driver functions (app-mpi.h).
 */
#include "app-mpi.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static int my_rank, nranks = 1;

void app_mpi_begin(int *argc, char ***argv, int *rank, int *ranks)
{
    int level;
    if (MPI_Init_thread(argc, argv, MPI_THREAD_SERIALIZED, &level) != MPI_SUCCESS)
        app_fail("MPI_Init_thread failed");
    if (level < MPI_THREAD_SERIALIZED)
        app_fail("MPI gives thread level %d, below MPI_THREAD_SERIALIZED", level);
    MPI_Comm_rank(MPI_COMM_WORLD, &my_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    *rank = my_rank;
    *ranks = nranks;
}

void app_mpi_sync(void)
{
    MPI_Barrier(MPI_COMM_WORLD);
}

void app_mpi_end(void)
{
    MPI_Finalize();
}

int app_mpi_rank(void)
{
    return my_rank;
}

int app_mpi_ranks(void)
{
    return nranks;
}

void app_mpi_usage_error(const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    app_report("%s", msg);
    /* mpirun ends the others once one rank exits with an error: none
     * exits before rank 0 has written the line. */
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    exit(2);
}

void app_mpi_strip(long base, long n, long w, int least, long *first, long *end)
{
    if (nranks > 1 && n < (long)least * nranks)
        app_mpi_usage_error("--size: %ld rows for %d ranks: each rank needs at least %d row%s", n,
                            nranks, least, least == 1 ? "" : "s");
    /* MPI counts and displacements are ints, in doubles. */
    if (base + n > INT_MAX / w)
        app_mpi_usage_error("--size: %ld rows of %ld: too many doubles for MPI's int counts", n, w);
    *first = base + app_strip_begin(my_rank, n, nranks);
    *end = base + app_strip_begin(my_rank + 1, n, nranks);
}

void app_mpi_gather_strips(double *x, long base, long n, long w)
{
    if (nranks == 1)
        return;
    int *counts = app_alloc((size_t)nranks, sizeof *counts);
    int *displs = app_alloc((size_t)nranks, sizeof *displs);
    for (int r = 0; r < nranks; ++r) {
        long first = base + app_strip_begin(r, n, nranks);
        counts[r] = (int)((base + app_strip_begin(r + 1, n, nranks) - first) * w);
        displs[r] = (int)(first * w);
    }
    if (my_rank == 0)
        MPI_Gatherv(MPI_IN_PLACE, 0, MPI_DOUBLE, x, counts, displs, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    else
        MPI_Gatherv(x + displs[my_rank], counts[my_rank], MPI_DOUBLE, NULL, NULL, NULL, MPI_DOUBLE,
                    0, MPI_COMM_WORLD);
    app_free(displs);
    app_free(counts);
}
