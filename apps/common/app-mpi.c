/*
 * app-mpi.c - the MPI programs' driver functions (app-mpi.h).
 */
#include "app-mpi.h"

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
