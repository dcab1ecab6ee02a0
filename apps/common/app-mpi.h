/*
 * app-mpi.h - what the apps' MPI programs share (app-mpi.c, built where
 * configure found MPI): the driver's struct app_mpi functions, and a bad
 * rank count as a bad option.
 *
 *   mpirun -np R APP --impl=mpi-fil --servers=S ...
 *
 * Every rank runs the program; MPI_THREAD_SERIALIZED, as libfilaments-mpi
 * needs (f_mpi_rtc_thread(3)).
 */
#ifndef APP_MPI_H
#define APP_MPI_H

#include <mpi.h>

#include "app.h"

void app_mpi_begin(int *argc, char ***argv, int *rank, int *ranks);
void app_mpi_sync(void);
void app_mpi_end(void);

/* This process's rank, and how many there are. */
int app_mpi_rank(void);
int app_mpi_ranks(void);

/* Every rank found the same bad rank count: one line from rank 0, exit
 * status 2 from every rank, MPI finalized. */
APP_NORETURN APP_PRINTF(1, 2) void app_mpi_usage_error(const char *fmt, ...);

#endif /* APP_MPI_H */
