/*
 * mpi-pingpong.c - this machine's MPI latency and bandwidth, the inputs of
 * the model of the hybrid programs beyond one machine (doc/mpi-model.md).
 *
 *   mpirun -np 2 mpi-pingpong [--min-bytes=N] [--max-bytes=N] [--rounds=K]
 *                             [--ms=MS]
 *
 * Ranks 0 and 1 send a message back and forth (MPI_Send, MPI_Recv, the
 * blocking pair a halo exchange is made of); the time of one way is half
 * a round trip.  Sizes from --min-bytes (default 8) to --max-bytes (default
 * 4 MiB), doubling.  Each size: untimed rounds that warm the path and
 * choose the repetitions, then --rounds rounds (default 7) of as many
 * round trips as fill about --ms milliseconds (default 20), at least 64;
 * the median round is the figure, with the fastest and the slowest.  Then
 * every rank calls MPI_Allreduce on one double (MPI_MAX, the convergence
 * test of Jacobi and SOR), timed the same way.
 * Ranks past the second only join the allreduce.
 *
 * And per size, what an overlap cannot hide: rank 1 posts a receive, rank
 * 0 sends, and rank 1 computes (no MPI call) for four times the one-way
 * time, at least 50 us, before it times its MPI_Wait.  Over shared memory
 * the message has long arrived, and the wait is a copy at most; over TCP
 * the receiver still reads it from the socket, some 6 us here; and a
 * message that needs the receiver to move (a rendezvous) takes its whole
 * time then.  The median round of as many repetitions as fill --ms.
 *
 * Prints one line per size and one for the allreduce, from rank 0:
 *   what=pingpong ranks=2 bytes=8 reps=40000 seconds=2.1e-07 min=... max=... bytes_per_s=...
 *   what=arrived ranks=2 bytes=8 reps=... seconds=... min=... max=...
 *   what=allreduce ranks=2 bytes=8 reps=... seconds=... min=... max=...
 * seconds is one way, the late wait, or one allreduce.  Bad options: one line, exit 2;
 * fewer than 2 ranks: one line, exit 2.  A benchmark: it judges nothing.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#define PROG "mpi-pingpong"

/* MIN_REPS: at least this many repetitions a round, however slow the
 * first batches were: there, one preemption of a rank can last longer than
 * a hundred round trips. */
enum { MAX_ROUNDS = 101, MIN_REPS = 64 };

static int rank, ranks;

/* A whole number in [min, max], or exit 2 with one line (from rank 0). */
static long number(const char *opt, const char *arg, long min, long max)
{
    char *end;
    errno = 0;
    long v = strtol(arg, &end, 10);
    if (errno != 0 || end == arg || *end != '\0' || v < min || v > max) {
        if (rank == 0)
            fprintf(stderr, PROG ": --%s=%s: expected a whole number in %ld .. %ld\n", opt, arg,
                    min, max);
        MPI_Finalize();
        exit(2);
    }
    return v;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* What one repetition does: a round trip between ranks 0 and 1, or one allreduce. */
struct op {
    int allreduce;
    char *buf;
    long bytes;
};

static void once(const struct op *op)
{
    if (op->allreduce) {
        double mine = (double)rank, max;
        MPI_Allreduce(&mine, &max, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    } else if (rank == 0) {
        MPI_Send(op->buf, (int)op->bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
        MPI_Recv(op->buf, (int)op->bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
        MPI_Recv(op->buf, (int)op->bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(op->buf, (int)op->bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
    }
}

/* Seconds per repetition of `reps`, as rank 0 saw them, every rank taking part. */
static double timed(const struct op *op, long reps)
{
    MPI_Barrier(MPI_COMM_WORLD);
    double start = MPI_Wtime();
    for (long r = 0; r < reps; ++r)
        once(op);
    double t = (MPI_Wtime() - start) / (double)reps;
    MPI_Bcast(&t, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    return t;
}

/* Rank 1's wait for a message that had time to arrive, as rank 1 saw it,
 * `reps` times: the mean. */
static double late_wait(const struct op *op, double delay, long reps)
{
    double waited = 0.0;
    for (long r = 0; r < reps; ++r) {
        MPI_Request req;
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 0) {
            MPI_Isend(op->buf, (int)op->bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD, &req);
            MPI_Wait(&req, MPI_STATUS_IGNORE);
        } else if (rank == 1) {
            MPI_Irecv(op->buf, (int)op->bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, &req);
            for (double until = MPI_Wtime() + delay; MPI_Wtime() < until;)
                ;
            double start = MPI_Wtime();
            MPI_Wait(&req, MPI_STATUS_IGNORE);
            waited += MPI_Wtime() - start;
        }
    }
    double t = waited / (double)reps;
    MPI_Bcast(&t, 1, MPI_DOUBLE, 1, MPI_COMM_WORLD);
    return t;
}

/* The late wait of one size whose one-way time is `way`. */
static void measure_late(const struct op *op, int rounds, long ms, double way)
{
    double delay = 4.0 * way > 50e-6 ? 4.0 * way : 50e-6;
    long reps = (long)((double)ms * 1e-3 / (delay + 2.0 * way));
    reps = reps < 8 ? 8 : reps;
    double s[MAX_ROUNDS];
    for (int k = 0; k < rounds; ++k)
        s[k] = late_wait(op, delay, reps);
    qsort(s, (size_t)rounds, sizeof s[0], by_value);
    if (rank == 0)
        printf("what=arrived ranks=%d bytes=%ld reps=%ld seconds=%.4g min=%.4g max=%.4g\n",
               ranks, op->bytes, reps, s[rounds / 2], s[0], s[rounds - 1]);
    fflush(stdout);
}

/* One size or the allreduce: untimed batches, doubling, until one takes a
 * quarter of `ms` (one batch's time is a poor guess on a shared machine,
 * where a single preemption stretches it); rounds of four times that many
 * repetitions, about `ms` each, then follow. */
static double measure(const struct op *op, int rounds, long ms)
{
    long reps = 1;
    while (reps < 10000000 && timed(op, reps) * (double)reps < (double)ms * 0.25e-3)
        reps *= 2;
    reps = reps < MIN_REPS / 4 ? MIN_REPS : reps * 4;
    double s[MAX_ROUNDS];
    for (int k = 0; k < rounds; ++k)
        s[k] = timed(op, reps);
    qsort(s, (size_t)rounds, sizeof s[0], by_value);
    /* A round trip is two ways; an allreduce is one operation. */
    double way = op->allreduce ? 1.0 : 0.5;
    double med = s[rounds / 2] * way;
    if (rank != 0)
        return med;
    if (op->allreduce)
        printf("what=allreduce ranks=%d bytes=8 reps=%ld seconds=%.4g min=%.4g max=%.4g\n",
               ranks, reps, med, s[0] * way, s[rounds - 1] * way);
    else
        printf("what=pingpong ranks=%d bytes=%ld reps=%ld seconds=%.4g min=%.4g max=%.4g "
               "bytes_per_s=%.4g\n", ranks, op->bytes, reps, med, s[0] * way,
               s[rounds - 1] * way, (double)op->bytes / med);
    fflush(stdout);
    return med;
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "min-bytes", required_argument, NULL, 'n' },
        { "max-bytes", required_argument, NULL, 'x' },
        { "rounds", required_argument, NULL, 'r' },
        { "ms", required_argument, NULL, 'm' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    long min = 8, max = 4L << 20, ms = 20;
    int rounds = 7;
    opterr = 0;  /* one line of our own below, not getopt's as well */
    for (int c; (c = getopt_long(argc, argv, "", longopts, NULL)) != -1;) {
        switch (c) {
        case 'n': min = number("min-bytes", optarg, 1, 1L << 30); break;
        case 'x': max = number("max-bytes", optarg, 1, 1L << 30); break;
        case 'r': rounds = (int)number("rounds", optarg, 1, MAX_ROUNDS); break;
        case 'm': ms = number("ms", optarg, 1, 60000); break;
        case 'h':
            if (rank == 0)
                printf("usage: mpirun -np 2 " PROG " [--min-bytes=N] [--max-bytes=N] "
                       "[--rounds=K] [--ms=MS]\n");
            MPI_Finalize();
            return 0;
        default:
            if (rank == 0)
                fprintf(stderr, PROG ": bad option '%s' (see --help)\n", argv[optind - 1]);
            MPI_Finalize();
            return 2;
        }
    }
    const char *why = optind < argc ? "an unexpected argument"
                      : min > max   ? "--min-bytes above --max-bytes"
                      : ranks < 2   ? "fewer than 2 ranks (mpirun -np 2)"
                                    : NULL;
    if (why != NULL) {
        if (rank == 0)
            fprintf(stderr, PROG ": %s\n", why);
        MPI_Finalize();
        return 2;
    }
    struct op op = { 0, malloc((size_t)max), 0 };
    if (op.buf == NULL) {
        fprintf(stderr, PROG ": no memory for %ld bytes\n", max);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    memset(op.buf, 1, (size_t)max);
    for (op.bytes = min;; op.bytes = op.bytes * 2 < max ? op.bytes * 2 : max) {
        measure_late(&op, rounds, ms, measure(&op, rounds, ms));
        if (op.bytes == max)
            break;
    }
    op.allreduce = 1;
    measure(&op, rounds, ms);
    free(op.buf);
    MPI_Finalize();
    return 0;
}
