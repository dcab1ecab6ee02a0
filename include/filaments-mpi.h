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

/* After MPI_Init_thread and f_initialize (in either order), from the main
 * thread between runs; once per f_initialize: F_ESTATE if the library is
 * not initialized, the caller is a filament or barrier code, MPI is not
 * initialized, is finalized, or gives less than MPI_THREAD_SERIALIZED, or
 * f_mpi_initialize came already.  It never initializes MPI itself. */
F_API int f_mpi_initialize(void);

/* After the runs, before f_finalize and MPI_Finalize, from the main thread:
 * F_ESTATE if a filament still waited for its request (the request is
 * cancelled, the filament never runs), before f_mpi_initialize, twice,
 * after f_finalize (which ended the library already) or after
 * MPI_Finalize; F_ENOMEM if a filament could not be created in a run. */
F_API int f_mpi_finalize(void);

/*
 * Once *req completes, run fn(i, j, arg) as an RTC filament on `server`
 * (F_ANY: on the server that sees it complete); fn NULL: nothing runs, but
 * no run ends before the request completes.  Any request: point-to-point,
 * a nonblocking collective, to or from MPI_PROC_NULL, generalized.  The
 * library takes the request: *req becomes MPI_REQUEST_NULL, so a second
 * use of the handle is F_EINVAL, as req NULL and a bad server are;
 * F_ESTATE (checked first): before f_mpi_initialize, or after
 * f_mpi_finalize or f_finalize; F_ENOMEM.  From the main thread, a
 * filament or barrier code: it calls no MPI function itself.
 */
F_API int f_mpi_rtc_thread(MPI_Request *req, int server, f_func fn, long i, long j, void *arg);

/* The same, and the request's status (source, tag, count, MPI_ERROR) is
 * stored in *status before fn runs; status MPI_STATUS_IGNORE: not stored. */
F_API int f_mpi_rtc_status(MPI_Request *req, MPI_Status *status, int server, f_func fn, long i,
                           long j, void *arg);

/* The same for a persistent request (MPI_Send_init, MPI_Recv_init, ...),
 * started: the handle stays the program's, to start again once fn has run,
 * or to free; fn runs once per start. */
F_API int f_mpi_rtc_persistent(MPI_Request req, MPI_Status *status, int server, f_func fn, long i,
                               long j, void *arg);

#ifdef __cplusplus
}
#endif

#endif /* FILAMENTS_MPI_H */
