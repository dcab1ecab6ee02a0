/*
 * requests.c - libfilaments-mpi: filaments that wait for MPI requests
 * (filaments-mpi.h; doc/design.md, "MPI").
 *
 * Distributed Filaments (Freeh, Lowenthal and Andrews, OSDI 1994) hid the
 * network's latency by running other filaments while a page or a message
 * was in flight.  Here a filament waits for an MPI request: the table below
 * holds the requests and the filaments that wait for them, and the core
 * library's poll hook (f_set_poll) makes every server that has run out of
 * its own work test them, MPI_Testsome on the whole table, instead of
 * going to the barrier.  A completed request's filament is created as an
 * RTC filament on its server (or on the poller's, for F_ANY), before the
 * request stops being counted, so that no episode ends before it runs.
 *
 * One lock serializes the table and every MPI call the library makes, which
 * is what MPI_THREAD_SERIALIZED asks: a poller that finds it taken does not
 * wait for it, another server is testing the same requests.
 */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>

#include <atomic_ops.h>

#include "filaments-mpi.h"

struct waiter {
    f_func fn;  /* NULL: only awaited */
    long i, j;
    void *arg;
    int server;
};

static struct {
    pthread_mutex_t lock;  /* the table, and the library's MPI calls */
    MPI_Request *reqs;     /* [0, n): awaited, the filaments in `waits` */
    struct waiter *waits;
    int *done;             /* MPI_Testsome's indices */
    int n, cap;
    volatile AO_t awaited; /* n, for pollers that find the lock taken */
    int attached;          /* between f_mpi_initialize and f_mpi_finalize */
    int error;             /* the first creation that failed in a poll */
} fm = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* Run the filaments of the completed requests, given by MPI_Testsome's
 * indices, and close the table over them: the library's lock is held. */
static void run_completed(const int *done, int ndone)
{
    for (int k = 0; k < ndone; ++k) {
        const struct waiter *w = &fm.waits[done[k]];
        if (w->fn == NULL)
            continue;
        int rc = f_rtc_thread(w->server == F_ANY ? f_my_server() : w->server, w->fn, w->i, w->j,
                              w->arg);
        if (rc < 0 && fm.error == 0)
            fm.error = rc;
    }
    /* Testsome set the completed ones to MPI_REQUEST_NULL. */
    int kept = 0;
    for (int k = 0; k < fm.n; ++k) {
        if (fm.reqs[k] != MPI_REQUEST_NULL) {
            fm.reqs[kept] = fm.reqs[k];
            fm.waits[kept++] = fm.waits[k];
        }
    }
    fm.n = kept;
}

/* Polls in a row that brought this server nothing, and how many of them
 * it makes before it cedes its core on each: the ranks of a machine may
 * share its cores (more ranks and servers than cores), and a poller that
 * spins takes the core from a rank that computes; but a yield on a loaded
 * machine can cost a time slice, so a short wait spins, as Open MPI's own
 * waits do unless the cores are oversubscribed. */
static __thread unsigned empty_polls;
#define SPIN_POLLS 256

static void nothing_came(void)
{
    if (++empty_polls > SPIN_POLLS)
        sched_yield();
}

/* The core library's poll hook (f_set_poll(3)): called by a server with no
 * work of its own; returns the requests still awaited. */
static int poll_requests(void *unused)
{
    (void)unused;
    if (pthread_mutex_trylock(&fm.lock) != 0) {
        nothing_came(); /* another server polls */
        return (int)AO_load_acquire(&fm.awaited);
    }
    int ndone = 0;
    if (fm.n > 0 && MPI_Testsome(fm.n, fm.reqs, &ndone, fm.done, MPI_STATUSES_IGNORE) ==
                        MPI_SUCCESS) {
        if (ndone == MPI_UNDEFINED) {
            /* No active request left: all are complete.  Open MPI returns
             * the sends that completed at once as one shared request
             * (ompi_request_empty), which Testsome counts as inactive. */
            ndone = fm.n;
            for (int k = 0; k < fm.n; ++k) {
                fm.done[k] = k;
                fm.reqs[k] = MPI_REQUEST_NULL;
            }
        }
        if (ndone > 0)
            run_completed(fm.done, ndone);
    }
    /* Release: the filaments created above, before they stop being counted. */
    AO_store_release(&fm.awaited, (AO_t)fm.n);
    int left = fm.n;
    pthread_mutex_unlock(&fm.lock);
    if (ndone > 0 || left == 0)
        empty_polls = 0;
    else
        nothing_came();
    return left;
}

int f_mpi_initialize(void)
{
    int init = 0, fin = 0, level = MPI_THREAD_SINGLE;
    if (MPI_Initialized(&init) != MPI_SUCCESS || !init || MPI_Finalized(&fin) != MPI_SUCCESS ||
        fin)
        return F_ESTATE;
    if (MPI_Query_thread(&level) != MPI_SUCCESS || level < MPI_THREAD_SERIALIZED)
        return F_ESTATE;
    int rc = f_set_poll(poll_requests, NULL);
    if (rc < 0)
        return rc;
    pthread_mutex_lock(&fm.lock);
    fm.attached = 1;
    fm.error = 0;
    pthread_mutex_unlock(&fm.lock);
    return F_OK;
}

/* Room for one more request: the lock is held. */
static int grow(void)
{
    if (fm.n < fm.cap)
        return F_OK;
    int cap = fm.cap > 0 ? 2 * fm.cap : 16;
    MPI_Request *reqs = realloc(fm.reqs, (size_t)cap * sizeof *reqs);
    if (reqs == NULL)
        return F_ENOMEM;
    fm.reqs = reqs;
    struct waiter *waits = realloc(fm.waits, (size_t)cap * sizeof *waits);
    if (waits == NULL)
        return F_ENOMEM;
    fm.waits = waits;
    int *done = realloc(fm.done, (size_t)cap * sizeof *done);
    if (done == NULL)
        return F_ENOMEM;
    fm.done = done;
    fm.cap = cap;
    return F_OK;
}

int f_mpi_rtc_thread(MPI_Request *req, int server, f_func fn, long i, long j, void *arg)
{
    int nservers = f_num_servers(); /* F_ESTATE after f_finalize */
    if (nservers < 0)
        return F_ESTATE;
    if (req == NULL || *req == MPI_REQUEST_NULL ||
        (server != F_ANY && (server < 0 || server >= nservers)))
        return F_EINVAL;
    /* A request used twice is caught by the MPI_REQUEST_NULL left in the
     * caller's handle: a copy of a handle cannot be told from another
     * request, since Open MPI gives every send that completed at once the
     * same handle (ompi_request_empty). */
    pthread_mutex_lock(&fm.lock);
    int rc = fm.attached ? F_OK : F_ESTATE;
    if (rc == F_OK)
        rc = grow();
    if (rc == F_OK) {
        fm.reqs[fm.n] = *req;
        fm.waits[fm.n] = (struct waiter){ fn, i, j, arg, server };
        fm.n++;
        /* Release: a poller that reads the count sees the entry too, and
         * the count rises before the caller's filament can end. */
        AO_store_release(&fm.awaited, (AO_t)fm.n);
        *req = MPI_REQUEST_NULL;
    }
    pthread_mutex_unlock(&fm.lock);
    return rc;
}

int f_mpi_finalize(void)
{
    if (f_my_server() >= 0)
        return F_ESTATE; /* a filament: f_parallel runs */
    pthread_mutex_lock(&fm.lock);
    int rc = fm.error;
    if (fm.n > 0) {
        /* Waiting past the end: these filaments will never run. */
        for (int k = 0; k < fm.n; ++k) {
            MPI_Cancel(&fm.reqs[k]);
            MPI_Request_free(&fm.reqs[k]);
        }
        fm.n = 0;
        AO_store_release(&fm.awaited, 0);
        rc = F_ESTATE;
    }
    fm.attached = 0;
    fm.error = 0;
    free(fm.reqs);
    free(fm.waits);
    free(fm.done);
    fm.reqs = NULL;
    fm.waits = NULL;
    fm.done = NULL;
    fm.cap = 0;
    pthread_mutex_unlock(&fm.lock);
    /* Between runs, the hook goes; after f_finalize it went already. */
    if (f_num_servers() >= 0)
        (void)f_set_poll(NULL, NULL);
    return rc;
}
