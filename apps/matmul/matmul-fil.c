/*
 * matmul-fil.c - the Filaments matrix multiplication [paper §2.1, §3.1]:
 * one run-to-completion filament per inner product, n^2 of them, placed by
 * strips of rows (server = i * nservers / n) for data locality.
 */
#include <filaments.h>

#include "app.h"
#include "matmul.h"

static void inner(long i, long j, void *m)
{
    matmul_inner(m, i, j);
}

void matmul_fil(void *problem, int servers)
{
    struct matmul *m = problem;
    app_check_f(f_initialize(servers), "f_initialize");
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
