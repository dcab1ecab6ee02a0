/*
 * mandelbrot-fil.c - the Filaments Mandelbrot image [paper §2.1, §3.4]: one
 * run-to-completion filament per pixel.
 *
 * As for convolution (convolution-fil.c) and in the paper, the pixels'
 * work varies and they share no data, so the pixels are spread over the
 * servers at random rather than by strips.  The paper draws rand() %
 * nservers per pixel in the main thread, which creates every filament while
 * the servers wait: a million of them at the default size.  Here each
 * server creates its own share, all at once (f_create_per_server): the
 * pixels t * step mod n^2 for t in its slice of 0 .. n^2 - 1, step the
 * golden section of n^2 made coprime with it, a permutation that spreads
 * every server's pixels evenly over the whole image, as random placement
 * does, without one thread to draw it (--impl=fil).  --impl=fil-any
 * creates the same shares with F_ANY: idle servers take from busy ones.
 * --impl=fil-main is the paper's program: the main thread draws
 * app_rand() % nservers from a fixed seed, so every run, on every machine,
 * places the pixels alike.  All three set F_ADAPT_ALL (f_set_adaptive(3)):
 * no pixel needs its server, so a server that has run its own takes the
 * rest of a slower server's.
 */
#include <filaments.h>

#include "app.h"
#include "mandelbrot.h"

#define PLACEMENT_SEED 4

static void pixel(long i, long j, void *m)
{
    mandel_pixel(m, i, j);
}

static long gcd(long a, long b)
{
    while (b != 0) {
        long r = a % b;
        a = b;
        b = r;
    }
    return a;
}

/* a * b mod m, for a, b < m < 2^62, without overflow. */
static long mulmod(long a, long b, long m)
{
    long r = 0;
    for (; b > 0; b >>= 1, a = a * 2 % m)
        if (b & 1)
            r = (r + a) % m;
    return r;
}

struct share {
    struct mandelbrot *m;
    int any;    /* F_ANY rather than the creating server */
};

/* A server's creator: the pixels t * step mod n^2 of its slice of t. */
static int create_share(int server, int nservers, void *arg)
{
    const struct share *sh = arg;
    long n = sh->m->n, pixels = n * n;
    long step = (long)((double)pixels * 0.6180339887498949);
    if (step < 1)
        step = 1;
    while (gcd(step, pixels) != 1)
        ++step;
    long t = app_strip_begin(server, pixels, nservers);
    long end = app_strip_begin(server + 1, pixels, nservers);
    long k = mulmod(t, step, pixels), i = k / n, j = k % n;
    long di = step / n, dj = step % n;
    int where = sh->any ? F_ANY : server;
    for (; t < end; ++t) {
        int rc = f_rtc_thread(where, pixel, i, j, sh->m);
        if (rc < 0)
            return rc;
        /* The next pixel: step on in row-major order, wrapping at n^2. */
        i += di;
        if ((j += dj) >= n) {
            j -= n;
            ++i;
        }
        if (i >= n)
            i -= n;
    }
    return 0;
}

static void run(struct mandelbrot *m, int servers, int any)
{
    struct share sh = { m, any };
    app_check_f(f_initialize(servers), "f_initialize");
    app_check_f(f_set_adaptive(F_ADAPT_ALL), "f_set_adaptive");
    app_check_f(f_create_per_server(create_share, &sh), "f_create_per_server");
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

void mandel_fil_main(void *problem, int servers)
{
    struct mandelbrot *m = problem;
    uint64_t seed = PLACEMENT_SEED;
    app_check_f(f_initialize(servers), "f_initialize");
    app_check_f(f_set_adaptive(F_ADAPT_ALL), "f_set_adaptive");
    for (long i = 0; i < m->n; ++i) {
        for (long j = 0; j < m->n; ++j) {
            int server = (int)(app_rand(&seed) % (uint64_t)servers);
            int rc = f_rtc_thread(server, pixel, i, j, m);
            if (rc < 0)
                app_check_f(rc, "f_rtc_thread");
        }
    }
    app_check_f(f_parallel(), "f_parallel");
    f_finalize();
}
