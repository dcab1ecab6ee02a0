/*
 * idle.c - what idle servers cost the rest of the machine, in process CPU
 * time (getrusage: user + system, every thread of the process).
 *
 *   idle [--servers=S] [--sleep-ms=MS] [--stretch-ms=MS]
 *
 * Between runs: f_parallel, then a sleep of MS milliseconds (default 1000)
 * in the main thread, then f_parallel again.  The CPU time across the sleep
 * is what the parked servers burn, plus the spinning they do before they
 * park: a few milliseconds at most, or a program that computes between
 * runs, or another program, loses a core to them.
 *
 * During a run: one filament on server 0 busy-waits for MS milliseconds
 * (default 1000) while the other servers have nothing to do, as in a long
 * sequential stretch of a parallel program (MS of that thread's own CPU
 * time, however long it takes on a shared machine).  Ideally the run costs
 * MS of CPU; extra_ms is what the idle servers burned on top, looking for
 * work; stretch_wall_ms is how long the run took.
 *
 * Prints one line:
 *   what=idle servers=2 sleep_ms=1000 sleep_cpu_ms=0.4 stretch_ms=1000
 *   stretch_wall_ms=1001.0 stretch_cpu_ms=1003.1 stretch_extra_ms=3.1
 * Bad options: one line, exit 2.  A benchmark, not a test: it prints its
 * figures and judges nothing.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include "filaments.h"

static double cpu_ms(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
           (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
}

static double wall_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* A whole number in [min, max], or exit 2 with one line. */
static long number(const char *opt, const char *arg, long min, long max)
{
    char *end;
    errno = 0;
    long v = strtol(arg, &end, 10);
    if (errno != 0 || end == arg || *end != '\0' || v < min || v > max) {
        fprintf(stderr, "idle: --%s=%s: expected a whole number in %ld .. %ld\n", opt, arg, min,
                max);
        exit(2);
    }
    return v;
}

static void check(int rc, const char *what)
{
    if (rc < 0) {
        fprintf(stderr, "idle: %s: %s\n", what, f_strerror(rc));
        exit(1);
    }
}

static void nothing(long i, long j, void *arg) {}

/* The sequential stretch: busy until this thread has used `ms` milliseconds
 * of CPU (its own clock, so that on a shared machine the stretch costs
 * exactly ms whatever else runs; the wall time it takes is reported). */
static double thread_cpu_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static void busy(long ms, long j, void *arg)
{
    double end = thread_cpu_ms() + (double)ms;
    while (thread_cpu_ms() < end)
        ;
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "servers", required_argument, NULL, 's' },
        { "sleep-ms", required_argument, NULL, 'p' },
        { "stretch-ms", required_argument, NULL, 't' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    int servers = 0;  /* the library's default: FILAMENTS_SERVERS, else one per core */
    long sleep_ms = 1000, stretch_ms = 1000;
    opterr = 0;  /* one line of our own below, not getopt's as well */
    for (int c; (c = getopt_long(argc, argv, "", longopts, NULL)) != -1;) {
        switch (c) {
        case 's': servers = (int)number("servers", optarg, 1, 1024); break;
        case 'p': sleep_ms = number("sleep-ms", optarg, 1, 3600000); break;
        case 't': stretch_ms = number("stretch-ms", optarg, 1, 3600000); break;
        case 'h': printf("usage: idle [--servers=S] [--sleep-ms=MS] [--stretch-ms=MS]\n"); return 0;
        default: fprintf(stderr, "idle: bad option '%s' (see --help)\n", argv[optind - 1]); return 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "idle: unexpected argument '%s'\n", argv[optind]);
        return 2;
    }
    check(f_initialize(servers), "f_initialize");
    int n = f_num_servers();

    for (int s = 0; s < n; ++s)
        check(f_rtc_thread(s, nothing, 0, 0, NULL), "f_rtc_thread");
    check(f_parallel(), "f_parallel");
    double before = cpu_ms();
    struct timespec pause = { sleep_ms / 1000, sleep_ms % 1000 * 1000000L };
    while (nanosleep(&pause, &pause) != 0 && errno == EINTR)
        ;
    double sleep_cpu = cpu_ms() - before;
    check(f_parallel(), "f_parallel");

    check(f_rtc_thread(0, busy, stretch_ms, 0, NULL), "f_rtc_thread");
    before = cpu_ms();
    double start = wall_ms();
    check(f_parallel(), "f_parallel");
    double stretch_wall = wall_ms() - start, stretch_cpu = cpu_ms() - before;

    printf("what=idle servers=%d sleep_ms=%ld sleep_cpu_ms=%.1f stretch_ms=%ld "
           "stretch_wall_ms=%.1f stretch_cpu_ms=%.1f stretch_extra_ms=%.1f\n",
           n, sleep_ms, sleep_cpu, stretch_ms, stretch_wall, stretch_cpu,
           stretch_cpu - (double)stretch_ms);
    f_finalize();
    return 0;
}
