/*
 * omp-barrier.c - the cost of one `#pragma omp barrier` episode among S
 * threads, the OpenMP peer of `micro --what=barrier` (bench/micro.c).
 * Built only where configure found OpenMP.
 *
 *   omp-barrier [--servers=S] [--count=N] [--rounds=R]
 *   what=omp-barrier servers=2 count=1000000 rounds=3 ns_per=.. min=.. max=.. wait_policy=..
 *
 * ns_per is the median over the rounds.  OMP_WAIT_POLICY (spin or sleep
 * between barriers) changes the answer a lot, so the line says which.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *prog = "omp-barrier";

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static long parse_long(const char *opt, const char *s, long min, long max)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0' || v < min || v > max) {
        fprintf(stderr, "%s: --%s=%s: expected an integer from %ld to %ld\n", prog, opt, s, min,
                max);
        exit(2);
    }
    return v;
}

/* ns per episode of `count` barriers among `threads` threads. */
static double time_barrier(int threads, long count)
{
    double ns = 0;
#pragma omp parallel num_threads(threads)
    {
#pragma omp barrier
        double t0 = now_ns();
        for (long k = 0; k < count; ++k) {
#pragma omp barrier
        }
        if (omp_get_thread_num() == 0)
            ns = (now_ns() - t0) / (double)count;
    }
    return ns;
}

int main(int argc, char **argv)
{
    long count = 1000000;
    int servers = 1, rounds = 3;
    static const struct option longopts[] = {
        { "servers", required_argument, NULL, 's' }, { "count", required_argument, NULL, 'n' },
        { "rounds", required_argument, NULL, 'R' },  { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 }
    };
    opterr = 0;
    for (int c; (c = getopt_long(argc, argv, "", longopts, NULL)) != -1;) {
        switch (c) {
        case 's': servers = (int)parse_long("servers", optarg, 1, 1024); break;
        case 'n': count = parse_long("count", optarg, 1, LONG_MAX / 4); break;
        case 'R': rounds = (int)parse_long("rounds", optarg, 1, 1000); break;
        case 'h': printf("usage: %s [--servers=S] [--count=N] [--rounds=R]\n", prog); return 0;
        default:
            fprintf(stderr, "%s: bad option '%s' (see --help)\n", prog, argv[optind - 1]);
            return 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "%s: unexpected argument '%s' (see --help)\n", prog, argv[optind]);
        return 2;
    }
    omp_set_dynamic(0);
    double *ns = malloc((size_t)rounds * sizeof *ns);
    if (ns == NULL) {
        fprintf(stderr, "%s: out of memory\n", prog);
        return 1;
    }
    for (int r = 0; r < rounds; ++r)
        ns[r] = time_barrier(servers, count);
    qsort(ns, (size_t)rounds, sizeof *ns, cmp_double);
    double med = rounds % 2 ? ns[rounds / 2] : (ns[rounds / 2 - 1] + ns[rounds / 2]) / 2;
    const char *policy = getenv("OMP_WAIT_POLICY");
    printf("what=omp-barrier servers=%d count=%ld rounds=%d ns_per=%.2f min=%.2f max=%.2f "
           "wait_policy=%s\n",
           servers, count, rounds, med, ns[0], ns[rounds - 1],
           policy != NULL && *policy != '\0' ? policy : "default");
    free(ns);
    return 0;
}
