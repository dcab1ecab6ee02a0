/*
 * soak.c - run the randomized programs of tests/stress.c seed after seed
 * until a duration elapses (make soak SOAK_SECONDS=600), or a given number
 * of them (--count), and print the seed of every failure with its server
 * count and what differed.  A program that hangs is reported by its seed
 * too: an alarm per program prints it and exits.
 *
 *   soak [--seconds=S] [--seed=FIRST] [--count=N]
 *
 * Ends with one line: "soak: N programs, seeds A..B, F failed, T s".
 * Exit status: 0 if none failed, 1 if some did, 2 for bad options.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "stress.h"

/* A program that takes this long has hung (they take milliseconds). */
enum { HANG_SECONDS = 60 };

static volatile unsigned long current_seed;

static void hung(int sig)
{
    char line[96];
    int n = snprintf(line, sizeof line, "soak: seed=%lu servers=%d HUNG (over %d s)\n",
                     current_seed, stress_servers(current_seed), HANG_SECONDS);
    if (n > 0 && write(STDOUT_FILENO, line, (size_t)n) < 0)
        _exit(1);
    _exit(1);
}

/* A whole number in [min, max], or exit 2 with one line. */
static long number(const char *opt, const char *arg, long min, long max)
{
    char *end;
    errno = 0;
    long v = strtol(arg, &end, 10);
    if (errno != 0 || end == arg || *end != '\0' || v < min || v > max) {
        fprintf(stderr, "soak: --%s=%s: expected a whole number in %ld .. %ld\n", opt, arg, min,
                max);
        exit(2);
    }
    return v;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "seconds", required_argument, NULL, 't' },
        { "seed", required_argument, NULL, 's' },
        { "count", required_argument, NULL, 'n' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    long seconds = 60, count = 0;
    unsigned long first = 1000000;  /* past the seeds that make check runs */
    opterr = 0;  /* one line of our own below, not getopt's as well */
    for (int c; (c = getopt_long(argc, argv, "", longopts, NULL)) != -1;) {
        switch (c) {
        case 't': seconds = number("seconds", optarg, 1, 7L * 24 * 3600); break;
        case 's': first = (unsigned long)number("seed", optarg, 0, LONG_MAX); break;
        case 'n': count = number("count", optarg, 1, LONG_MAX); break;
        case 'h': printf("usage: soak [--seconds=S] [--seed=FIRST] [--count=N]\n"); return 0;
        default: fprintf(stderr, "soak: bad option '%s' (see --help)\n", argv[optind - 1]); return 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "soak: unexpected argument '%s'\n", argv[optind]);
        return 2;
    }
    signal(SIGALRM, hung);
    double start = now();
    unsigned long seed = first, failed = 0;
    for (; count > 0 ? seed - first < (unsigned long)count : now() - start < (double)seconds;
         ++seed) {
        char why[256];
        current_seed = seed;
        alarm(HANG_SECONDS);
        if (stress_run(seed, why, sizeof why) != 0) {
            printf("soak: seed=%lu servers=%d FAILED: %s\n", seed, stress_servers(seed), why);
            fflush(stdout);
            ++failed;
        }
    }
    alarm(0);
    printf("soak: %lu programs, seeds %lu..%lu, %lu failed, %.1f s\n", seed - first, first,
           seed - 1, failed, now() - start);
    return failed != 0;
}
