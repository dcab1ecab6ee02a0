/*
 * fft-fil.c - the Filaments 2-D FFT [paper §2.1, §3.4]: "first creating and
 * executing one thread for each row and then creating and executing one
 * thread for each column".  One run-to-completion filament per row, placed
 * by strips (server = i * nservers / n), and f_parallel(); then one per
 * column, placed alike, and f_parallel() again: two runs of the same
 * servers, the second consuming what was created after the first.
 *
 * A column filament uses its server's scratch vector: a run-to-completion
 * filament is never interrupted on its server, so one vector per server
 * suffices, and it is the vector of the server that runs it, so the
 * filaments may move: with F_ADAPT_ALL (f_set_adaptive(3)) a server that
 * has run its own strip takes the rest of a slower server's.
 */
#include <filaments.h>

#include "app.h"
#include "fft.h"

struct fil {
    const struct fft *f;
    struct cplx *scratch;  /* n per server */
};

static void row(long i, long j, void *arg)
{
    const struct fil *fl = arg;
    fft_row(fl->f, i);
}

static void column(long j, long unused, void *arg)
{
    const struct fil *fl = arg;
    fft_column(fl->f, j, fl->scratch + (long)f_my_server() * fl->f->n);
}

static void create_all(const struct fil *fl, int servers, f_func fn)
{
    long n = fl->f->n;
    for (long k = 0; k < n; ++k) {
        int rc = f_rtc_thread((int)app_strip_of(k, n, servers), fn, k, 0, (void *)fl);
        if (rc < 0)
            app_check_f(rc, "f_rtc_thread");
    }
}

void fft_fil(void *problem, int servers)
{
    struct fil fl = { problem, NULL };
    fl.scratch = app_alloc((size_t)servers * (size_t)fl.f->n, sizeof *fl.scratch);
    app_check_f(f_initialize(servers), "f_initialize");
    app_check_f(f_set_adaptive(F_ADAPT_ALL), "f_set_adaptive");
    create_all(&fl, servers, row);
    app_check_f(f_parallel(), "f_parallel");
    create_all(&fl, servers, column);
    app_check_f(f_parallel(), "f_parallel");
    f_finalize();
    app_free(fl.scratch);
}
