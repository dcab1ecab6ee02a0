/*
 * forkloop.c - a loop of forks, then one join: the shape in which OpenMP
 * tasks, TBB task groups and Cilk spawns are most often written.  One root
 * filament forks `children` children of about `us` microseconds of
 * computation each, in a loop, and joins them once; the benchmark says how
 * long the run took and how many of the children ran on a server other
 * than the forker's (the thieves' share).
 *
 *   forkloop [--servers=S] [--children=N] [--us=US] [--typed] [--rounds=R]
 *
 * --typed forks value-returning children (f_fork_long) and syncs each, as a
 * loop of typed forks must.  The work is a fixed number of iterations,
 * calibrated once, sequentially, to `us` microseconds, so that a run at
 * any server count does the same work.  Prints one line per round:
 *   what=forkloop servers=2 children=800 us=2000 typed=0 seconds=0.81 thief_share=0.49
 * Pruning is the library's (FILAMENTS_PRUNE in the environment).  Bad
 * options: one line, exit 2.  A benchmark, not a test: it judges nothing.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "filaments.h"

static long children = 800, work_us = 2000, iterations;
static int *ran_on;    /* per child: the server that ran it */

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* `n` steps of a linear congruential generator: work the compiler cannot
 * drop or shorten. */
static unsigned long spin(long n)
{
    unsigned long x = 1;
    for (long k = 0; k < n; ++k)
        x = x * 6364136223846793005UL + 1442695040888963407UL;
    return x;
}

static volatile unsigned long sink;

/* Iterations of spin per `us` microseconds, on this thread, now. */
static long calibrate(long us)
{
    long n = 1 << 16;
    double t;
    for (;;) {
        double start = now_s();
        sink = spin(n);
        t = now_s() - start;
        if (t > 0.05)
            break;
        n *= 2;
    }
    return (long)((double)n * (double)us / (t * 1e6));
}

static void child(long k, long unused, void *unused2)
{
    sink = spin(iterations);
    ran_on[k] = f_my_server();
}

static long typed_child(f_frame fr, long k, long unused, void *unused2)
{
    child(k, 0, NULL);
    return 1;
}

/* The root: fork every child in a loop, then join (or sync) once each. */
static void root(long typed, long unused, void *forker)
{
    *(int *)forker = f_my_server();
    if (!typed) {
        for (long k = 0; k < children; ++k)
            f_fork(child, k, 0, NULL);
        f_join();
        return;
    }
    f_frame fr = f_frame_here();
    for (long k = 0; k < children; ++k)
        f_fork_long(&fr, typed_child, k, 0, NULL);
    long done = 0;
    for (long k = 0; k < children; ++k)
        done += f_sync_long(&fr, typed_child);
    if (done != children) {
        fprintf(stderr, "forkloop: %ld of %ld typed children synced\n", done, children);
        exit(1);
    }
}

/* A whole number in [min, max], or exit 2 with one line. */
static long number(const char *opt, const char *arg, long min, long max)
{
    char *end;
    errno = 0;
    long v = strtol(arg, &end, 10);
    if (errno != 0 || end == arg || *end != '\0' || v < min || v > max) {
        fprintf(stderr, "forkloop: --%s=%s: expected a whole number in %ld .. %ld\n", opt, arg,
                min, max);
        exit(2);
    }
    return v;
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "servers", required_argument, NULL, 's' }, { "children", required_argument, NULL, 'c' },
        { "us", required_argument, NULL, 'u' },      { "typed", no_argument, NULL, 't' },
        { "rounds", required_argument, NULL, 'r' },  { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 }
    };
    int servers = 2, typed = 0;
    long rounds = 1;
    for (int c; (c = getopt_long(argc, argv, "", longopts, NULL)) != -1;) {
        switch (c) {
        case 's': servers = (int)number("servers", optarg, 1, 1024); break;
        case 'c': children = number("children", optarg, 1, 1000000); break;
        case 'u': work_us = number("us", optarg, 0, 1000000); break;
        case 't': typed = 1; break;
        case 'r': rounds = number("rounds", optarg, 1, 1000); break;
        case 'h':
            printf("usage: forkloop [--servers=S] [--children=N] [--us=US] [--typed] "
                   "[--rounds=R]\n");
            return 0;
        default: fprintf(stderr, "forkloop: bad option '%s' (see --help)\n", argv[optind - 1]); return 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "forkloop: unexpected argument '%s'\n", argv[optind]);
        return 2;
    }
    iterations = calibrate(work_us);
    ran_on = calloc((size_t)children, sizeof *ran_on);
    int rc = ran_on != NULL ? f_initialize(servers) : F_ENOMEM;
    if (rc < 0) {
        fprintf(stderr, "forkloop: cannot start %d servers: %s\n", servers, f_strerror(rc));
        return 1;
    }
    for (long r = 0; r < rounds; ++r) {
        int forker = -1;
        double start = now_s();
        rc = f_fork(root, typed, 0, &forker);
        if (rc == F_OK)
            rc = f_parallel();
        double seconds = now_s() - start;
        if (rc < 0) {
            fprintf(stderr, "forkloop: the run failed: %s\n", f_strerror(rc));
            return 1;
        }
        long elsewhere = 0;
        for (long k = 0; k < children; ++k)
            elsewhere += ran_on[k] != forker;
        printf("what=forkloop servers=%d children=%ld us=%ld typed=%d seconds=%.6f "
               "thief_share=%.3f\n",
               servers, children, work_us, typed, seconds, (double)elsewhere / (double)children);
        fflush(stdout);
    }
    f_finalize();
    free(ran_on);
    return 0;
}
