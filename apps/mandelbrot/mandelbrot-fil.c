/*
 * mandelbrot-fil.c - the Filaments Mandelbrot image [paper §2.1, §3.4]: one
 * run-to-completion filament per pixel.
 *
 * As for convolution (convolution-fil.c) and in the paper, the pixels'
 * work varies and they share no data, so each filament goes to a random
 * server, the paper's rand() % nservers made app_rand() from a fixed seed
 * (--impl=fil); --impl=fil-any creates them with F_ANY and lets the library
 * place and balance them.
 */
#include <filaments.h>

#include "app.h"
#include "mandelbrot.h"

#define PLACEMENT_SEED 4

static void pixel(long i, long j, void *m)
{
    mandel_pixel(m, i, j);
}

static void run(struct mandelbrot *m, int servers, int any)
{
    uint64_t seed = PLACEMENT_SEED;
    app_check_f(f_initialize(servers), "f_initialize");
    for (long i = 0; i < m->n; ++i) {
        for (long j = 0; j < m->n; ++j) {
            int server = any ? F_ANY : (int)(app_rand(&seed) % (uint64_t)servers);
            int rc = f_rtc_thread(server, pixel, i, j, m);
            if (rc < 0)
                app_check_f(rc, "f_rtc_thread");
        }
    }
    app_check_f(f_parallel(), "f_parallel");
    f_finalize();
}

void mandel_fil(void *problem, int servers)
{
    run(problem, servers, 0);
}

void mandel_fil_any(void *problem, int servers)
{
    run(problem, servers, 1);
}
