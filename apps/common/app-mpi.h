/*
 * app-mpi.h - what the apps' MPI programs share (app-mpi.c, built where
 * configure found MPI): the driver's struct app_mpi functions, a bad rank
 * count as a bad option, and the rows of a matrix or grid dealt to the
 * ranks in strips and gathered back to rank 0.
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

/*
 * Rows [base, base + n) of w doubles each, dealt to the ranks in strips as
 * app_strip_begin deals rows to servers: this rank's are [*first, *end).
 * Every rank computes the same strips, so none needs to be told its own.
 * Several ranks of which one would get fewer than `least` rows, or rows
 * beyond MPI's int counts, are a bad option (app_mpi_usage_error).
 */
void app_mpi_strip(long base, long n, long w, int least, long *first, long *end);

/* Gather every rank's strip of x, as app_mpi_strip dealt them, to rank 0's x. */
void app_mpi_gather_strips(double *x, long base, long n, long w);

#endif /* APP_MPI_H */
