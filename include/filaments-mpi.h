/*
 * filaments-mpi.h - Filaments inside MPI ranks: filaments that wait for MPI
 * requests, so that a rank's servers run the filaments that need no
 * message while the messages travel (Freeh, Lowenthal and Andrews,
 * "Distributed Filaments: efficient fine-grain parallelism on a cluster of
 * workstations", OSDI 1994; the Filaments paper, section 6).
 *
 *   cc prog.c $(pkg-config --cflags --libs filaments-mpi)
 *
 * The threading level is MPI_THREAD_SERIALIZED or more.  The library calls
 * MPI only from a server that polls (one at a time, under its own lock),
 * and polls only during f_parallel, outside barrier code: so with
 * MPI_THREAD_SERIALIZED the program may call MPI from the main thread
 * between runs and from barrier code; filaments that call MPI need
 * MPI_THREAD_MULTIPLE.  See f_mpi_rtc_thread(3) and doc/design.md, "MPI".
 */
#ifndef FILAMENTS_MPI_H
#define FILAMENTS_MPI_H

#include <mpi.h>

#include <filaments.h>

#ifdef __cplusplus
extern "C" {
#endif

/* After MPI_Init_thread and f_initialize, from the main thread between
 * runs: F_ESTATE if MPI is not initialised, is finalized, or gives less than
 * MPI_THREAD_SERIALIZED, or the library is not initialized. */
F_API int f_mpi_initialize(void);

/* Before f_finalize: F_ESTATE if a filament still waited for its request
 * (the request is cancelled and freed, the filament never runs). */
F_API int f_mpi_finalize(void);

/*
 * Once *req completes, run fn(i, j, arg) as an RTC filament on `server`
 * (F_ANY: on the server that sees it complete); fn NULL: nothing runs, but
 * no run ends before the request completes.  The library takes the
 * request: *req becomes MPI_REQUEST_NULL, so a second use of the handle
 * is F_EINVAL, as req NULL and a bad server are;
 * F_ESTATE: before f_mpi_initialize, or after f_mpi_finalize or
 * f_finalize; F_ENOMEM.  From the main thread, a filament or barrier code:
 * it calls no MPI function itself.
 */
F_API int f_mpi_rtc_thread(MPI_Request *req, int server, f_func fn, long i, long j, void *arg);

#ifdef __cplusplus
}
#endif

#endif /* FILAMENTS_MPI_H */
