/*
 * requests.c - libfilaments-mpi: filaments that wait for MPI requests
 * (filaments-mpi.h; doc/design.md, "MPI").
 *
 * Distributed Filaments (Freeh, Lowenthal and Andrews, OSDI 1994) hid the
 * network's latency by running other filaments while a page or a message
 * was in flight.  Here a filament waits for an MPI request: the table below
 * holds the requests and the filaments that wait for them, and a poll of
 * the library's own beside the program's (f_set_library_poll_, f_set_poll)
 * makes every server that has run out of its own work test them instead of
 * going to the barrier.  A completed request's filament is created as an
 * RTC filament on its server (or on the poller's, for F_ANY), after its
 * status is stored where the program asked and before the request stops
 * being counted, so that no episode ends before it runs.
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
    MPI_Status *status; /* MPI_STATUS_IGNORE, or where the status goes */
    int kept;           /* persistent, the program's: never freed here */
};

static struct {
    pthread_mutex_t lock;  /* the table, and the library's MPI calls */
    MPI_Request *reqs;     /* [0, n): awaited, the filaments in `waits` */
    struct waiter *waits;
    int *done;             /* the completed ones' indices, */
    MPI_Status *statuses;  /* and their statuses */
    int n, cap;
    int tested;            /* [tested, n): made to wait since the last poll */
    volatile AO_t awaited; /* n, for pollers that find the lock taken */
    int attached;          /* between f_mpi_initialize and f_mpi_finalize */
    int error;             /* the first creation that failed in a poll */
} fm = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* Which of the awaited requests have completed: their indices in fm.done,
 * their statuses in fm.statuses, an error in the status's MPI_ERROR.  The
 * requests that came since the last poll are tested one by one, the others
 * all at once: MPI_Testsome skips an inactive request and would never
 * report it, though MPI_Test and MPI_Wait call it complete; a persistent
 * request that was not started is one, and so is Open MPI's one handle
 * for all the sends that completed at once (ompi_request_empty), once any
 * test has seen it complete.  Such a request is complete at its first
 * test, and a request found active then is reported by MPI_Testsome when
 * it completes.  The lock is held. */
static int test_requests(void)
{
    int ndone = 0;
    if (fm.tested > 0) {
        int rc = MPI_Testsome(fm.tested, fm.reqs, &ndone, fm.done, fm.statuses);
        if (ndone == MPI_UNDEFINED || (rc != MPI_SUCCESS && rc != MPI_ERR_IN_STATUS))
            ndone = 0; /* none active: cannot be, by the above */
        else if (rc == MPI_SUCCESS)
            for (int k = 0; k < ndone; ++k)
                fm.statuses[k].MPI_ERROR = MPI_SUCCESS; /* else undefined */
    }
    for (int k = fm.tested; k < fm.n; ++k) {
        int flag = 0;
        int rc = MPI_Test(&fm.reqs[k], &flag, &fm.statuses[ndone]);
        if (flag) {
            fm.statuses[ndone].MPI_ERROR = rc;
            fm.done[ndone++] = k;
        }
    }
    fm.tested = fm.n;
    return ndone;
}

/* Give the completed requests' filaments their statuses and create them,
 * free the requests that are the library's, and close the table over
 * them: the lock is held. */
static void run_completed(int ndone)
{
    for (int k = 0; k < ndone; ++k) {
        MPI_Request *req = &fm.reqs[fm.done[k]];
        const struct waiter *w = &fm.waits[fm.done[k]];
        /* Left by the test: a persistent request (inactive), a request
         * that failed, or ompi_request_empty. */
        if (!w->kept && *req != MPI_REQUEST_NULL)
            MPI_Request_free(req);
        *req = MPI_REQUEST_NULL; /* the table's copy: a kept one is the program's */
        if (w->status != MPI_STATUS_IGNORE)
            *w->status = fm.statuses[k]; /* published by the creation below */
        if (w->fn == NULL)
            continue;
        int rc = f_rtc_thread(w->server == F_ANY ? f_my_server() : w->server, w->fn, w->i, w->j,
                              w->arg);
        if (rc < 0 && fm.error == 0)
            fm.error = rc;
    }
    int kept = 0;
    for (int k = 0; k < fm.n; ++k) {
        if (fm.reqs[k] != MPI_REQUEST_NULL) {
            fm.reqs[kept] = fm.reqs[k];
            fm.waits[kept++] = fm.waits[k];
        }
    }
    fm.n = fm.tested = kept;
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

/* The library's poll (f_set_poll(3)): called by a server with no work of
 * its own; returns the requests still awaited. */
static int poll_requests(void *unused)
{
    (void)unused;
    if (pthread_mutex_trylock(&fm.lock) != 0) {
        nothing_came(); /* another server polls */
        return (int)AO_load_acquire(&fm.awaited);
    }
    int ndone = fm.n > 0 ? test_requests() : 0;
    if (ndone > 0)
        run_completed(ndone);
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

/* Is MPI up: initialized, and not finalized? */
static int mpi_up(void)
{
    int init = 0, fin = 1;
    return MPI_Initialized(&init) == MPI_SUCCESS && init && MPI_Finalized(&fin) == MPI_SUCCESS &&
           !fin;
}

/* The end of the library's lifetime, by f_mpi_finalize or by an f_finalize
 * before it: the requests still awaited are cancelled, the library's freed
 * (a kept one stays the program's, to complete), and their filaments never
 * run; after MPI_Finalize they went with MPI.  F_ESTATE if one was awaited
 * or MPI was finalized, else the first failed creation.  The lock is held. */
static int detach(void)
{
    int up = mpi_up();
    int rc = fm.n > 0 || !up ? F_ESTATE : fm.error;
    for (int k = 0; k < fm.n && up; ++k) {
        MPI_Cancel(&fm.reqs[k]);
        if (!fm.waits[k].kept)
            MPI_Request_free(&fm.reqs[k]);
    }
    fm.n = fm.tested = fm.cap = 0;
    AO_store_release(&fm.awaited, 0);
    fm.attached = 0;
    fm.error = 0;
    free(fm.reqs);
    free(fm.waits);
    free(fm.done);
    free(fm.statuses);
    fm.reqs = NULL;
    fm.waits = NULL;
    fm.done = NULL;
    fm.statuses = NULL;
    return rc;
}

/* f_finalize before f_mpi_finalize ends the library's lifetime too. */
static void core_ended(void *unused)
{
    (void)unused;
    pthread_mutex_lock(&fm.lock);
    (void)detach();
    pthread_mutex_unlock(&fm.lock);
}

int f_mpi_initialize(void)
{
    /* The core's state first, before any MPI call: F_ESTATE precedes all. */
    if (f_num_servers() < 0 || f_my_server() >= 0)
        return F_ESTATE;
    int level = MPI_THREAD_SINGLE;
    if (!mpi_up() || MPI_Query_thread(&level) != MPI_SUCCESS || level < MPI_THREAD_SERIALIZED)
        return F_ESTATE;
    pthread_mutex_lock(&fm.lock);
    int rc = fm.attached ? F_ESTATE : f_set_library_poll_(poll_requests, core_ended, NULL);
    if (rc == F_OK) {
        fm.attached = 1;
        fm.error = 0;
    }
    pthread_mutex_unlock(&fm.lock);
    return rc;
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
    MPI_Status *statuses = realloc(fm.statuses, (size_t)cap * sizeof *statuses);
    if (statuses == NULL)
        return F_ENOMEM;
    fm.statuses = statuses;
    fm.cap = cap;
    return F_OK;
}

/* The three calls' one body: kept, the request is the program's
 * (f_mpi_rtc_persistent), else the library takes it. */
static int await(MPI_Request *req, int kept, MPI_Status *status, int server, f_func fn, long i,
                 long j, void *arg)
{
    int nservers = f_num_servers(); /* F_ESTATE after f_finalize */
    if (nservers < 0)
        return F_ESTATE;
    pthread_mutex_lock(&fm.lock);
    int rc = F_OK;
    if (!fm.attached)
        rc = F_ESTATE; /* before the arguments, as everywhere */
    /* A request used twice is caught by the MPI_REQUEST_NULL left in the
     * caller's handle: a copy of a handle cannot be told from another
     * request, since Open MPI gives every send that completed at once the
     * same handle (ompi_request_empty). */
    else if (req == NULL || *req == MPI_REQUEST_NULL ||
             (server != F_ANY && (server < 0 || server >= nservers)))
        rc = F_EINVAL;
    else
        rc = grow();
    if (rc == F_OK) {
        fm.reqs[fm.n] = *req;
        fm.waits[fm.n] = (struct waiter){ fn, i, j, arg, server, status, kept };
        fm.n++;
        /* Release: a poller that reads the count sees the entry too, and
         * the count rises before the caller's filament can end. */
        AO_store_release(&fm.awaited, (AO_t)fm.n);
        if (!kept)
            *req = MPI_REQUEST_NULL;
    }
    pthread_mutex_unlock(&fm.lock);
    return rc;
}

int f_mpi_rtc_thread(MPI_Request *req, int server, f_func fn, long i, long j, void *arg)
{
    return await(req, 0, MPI_STATUS_IGNORE, server, fn, i, j, arg);
}

int f_mpi_rtc_status(MPI_Request *req, MPI_Status *status, int server, f_func fn, long i, long j,
                     void *arg)
{
    return await(req, 0, status, server, fn, i, j, arg);
}

int f_mpi_rtc_persistent(MPI_Request req, MPI_Status *status, int server, f_func fn, long i,
                         long j, void *arg)
{
    return await(&req, 1, status, server, fn, i, j, arg);
}

int f_mpi_finalize(void)
{
    pthread_mutex_lock(&fm.lock);
    /* Not initialized, ended by f_finalize, or not the main thread between
     * runs (f_set_library_poll_ refuses). */
    int rc = F_ESTATE;
    if (fm.attached && (rc = f_set_library_poll_(NULL, NULL, NULL)) == F_OK)
        rc = detach();
    pthread_mutex_unlock(&fm.lock);
    return rc;
}
