/*
 * matmul-fil.c - the Filaments matrix multiplication [paper §2.1, §3.1]:
 * one run-to-completion filament per inner product, n^2 of them, placed by
 * strips of rows (server = i * nservers / n) for data locality.
 *
 * --impl=fil has each server create the filaments of its own strip
 * (f_create_per_server), all at once, into memory it touches first, as
 * each MPI rank of --impl=mpi-fil does for its strip (matmul-mpi.c);
 * --impl=fil-main creates them all from the main thread, as the paper's
 * program does, while the servers wait: 10^6 filaments for n = 1000, a
 * serial start that grows with the core count.
 *
 * The strips are where the work starts, not where it must end: with
 * F_ADAPT_ALL (f_set_adaptive(3)) a server that has run its own strip
 * takes the rest of a slower server's, so that one core shared with
 * another program does not hold up the run.
 */
#include <filaments.h>

#include "app.h"
#include "matmul.h"

static void inner(long i, long j, void *m)
{
    matmul_inner(m, i, j);
}

/* Rows [first, end) of c, which the servers deal among themselves. */
struct rows {
    struct matmul *m;
    long first, end;
};

/* A server's creator: the filaments of its strip of the rows, the rows
 * that i * nservers / n places on it when they are all of c. */
static int create_strip(int server, int nservers, void *arg)
{
    const struct rows *r = arg;
    long n = r->end - r->first;
    long end = r->first + app_strip_begin(server + 1, n, nservers);
    for (long i = r->first + app_strip_begin(server, n, nservers); i < end; ++i) {
        for (long j = 0; j < r->m->n; ++j) {
            int rc = f_rtc_thread(server, inner, i, j, r->m);
            if (rc < 0)
                return rc;
        }
    }
    return 0;
}

void matmul_fil_rows(struct matmul *m, int servers, long first, long end)
{
    struct rows r = { m, first, end };
    app_check_f(f_initialize(servers), "f_initialize");
    app_check_f(f_set_adaptive(F_ADAPT_ALL), "f_set_adaptive");
    app_check_f(f_create_per_server(create_strip, &r), "f_create_per_server");
    app_check_f(f_parallel(), "f_parallel");
    f_finalize();
}

void matmul_fil(void *problem, int servers)
{
    struct matmul *m = problem;
    matmul_fil_rows(m, servers, 0, m->n);
}

/* The paper's program: the row's server is i * nservers / n. */
void matmul_fil_main(void *problem, int servers)
{
    struct matmul *m = problem;
    app_check_f(f_initialize(servers), "f_initialize");
    app_check_f(f_set_adaptive(F_ADAPT_ALL), "f_set_adaptive");
    for (long i = 0; i < m->n; ++i) {
        int server = (int)app_strip_of(i, m->n, servers);
        for (long j = 0; j < m->n; ++j) {
            int rc = f_rtc_thread(server, inner, i, j, m);
            if (rc < 0)
                app_check_f(rc, "f_rtc_thread");
        }
    }
    app_check_f(f_parallel(), "f_parallel");
    f_finalize();
}
