/*
 * convolution-fil.c - the Filaments adjoint convolution [paper §2.1, §3.4]:
 * one run-to-completion filament per output point.
 *
 * The points do different amounts of work and share no data worth keeping
 * near a server, so, as in the paper, each filament goes to a random
 * server: "since there is a lot of work to be done, random scheduling
 * approximates a load-balanced distribution of work".  The paper's
 * rand() % nservers is app_rand() from a fixed seed here, so that every
 * run, on every machine, places the points alike (--impl=fil).
 * --impl=fil-any creates them with F_ANY instead: the library places them
 * and idle servers take them from busy ones.  Both set F_ADAPT_ALL
 * (f_set_adaptive(3)), so that in fil too a server that has run its own
 * points takes the rest of a slower server's: where placement is random,
 * no point needs its server.
 */
#include <filaments.h>

#include "app.h"
#include "convolution.h"

#define PLACEMENT_SEED 4

static void point(long i, long j, void *v)
{
    conv_point(v, i);
}

static void run(struct convolution *v, int servers, int any)
{
    uint64_t seed = PLACEMENT_SEED;
    app_check_f(f_initialize(servers), "f_initialize");
    app_check_f(f_set_adaptive(F_ADAPT_ALL), "f_set_adaptive");
    for (long i = 0; i < v->m; ++i) {
        int server = any ? F_ANY : (int)(app_rand(&seed) % (uint64_t)servers);
        int rc = f_rtc_thread(server, point, i, 0, v);
        if (rc < 0)
            app_check_f(rc, "f_rtc_thread");
    }
    app_check_f(f_parallel(), "f_parallel");
    f_finalize();
}

void conv_fil(void *problem, int servers)
{
    run(problem, servers, 0);
}

void conv_fil_any(void *problem, int servers)
{
    run(problem, servers, 1);
}
