/*
 * sor-fil.c - the Filaments red/black SOR [paper §2.2]: two phases per
 * iteration, one iterative filament per point of the phase's colour,
 * placed by strips of rows (server = (i - 1) * nservers / n).
 *
 * Filaments are indexed (i, k) with j = sor_first(i, colour) + 2k, so the
 * points of one colour in a row have consecutive k and form one run, which
 * the library executes with one call of the range version.
 *
 * The largest change travels in a continuation [paper §2.2, §4.4]: each
 * server's red filaments leave their maximum in the server's block, the
 * black filaments on the same server add theirs, and the second barrier's
 * sequential code combines the blocks with f_continuation_of(), counts the
 * iteration and clears the blocks.  The first barrier has no sequential
 * code.  The range versions are written out by hand (F_RANGE_VERSION would
 * call the point function, and so f_continuation_local(), once per point):
 * they fetch the server's block once per run.
 *
 * Each server creates the filaments of its own strip, phase by phase
 * (f_create_per_server), rather than the main thread all of them.
 */
#include <filaments.h>

#include "app.h"
#include "sor.h"

struct fil {
    struct sor *s;
    f_continuation *maxdiff;  /* a double per server */
};

static inline void fold(double *block, double d)
{
    if (d > *block)
        *block = d;
}

static inline double point(const struct fil *f, long i, long k, int colour)
{
    struct sor *s = f->s;
    return sor_point(s->x, s->w, i, sor_first(i, colour) + 2 * k, s->omega);
}

static void red(long i, long k, void *arg)
{
    struct fil *f = arg;
    fold(f_continuation_local(f->maxdiff), point(f, i, k, SOR_RED));
}

static void black(long i, long k, void *arg)
{
    struct fil *f = arg;
    fold(f_continuation_local(f->maxdiff), point(f, i, k, SOR_BLACK));
}

static inline void run(struct fil *f, long i, long k_begin, long k_end, int colour)
{
    double *block = f_continuation_local(f->maxdiff);
    double maxdiff = *block;
    for (long k = k_begin; k < k_end; ++k) {
        double d = point(f, i, k, colour);
        if (d > maxdiff)
            maxdiff = d;
    }
    *block = maxdiff;
}

static void red_range(long i, long k_begin, long k_end, void *arg)
{
    run(arg, i, k_begin, k_end, SOR_RED);
}

static void black_range(long i, long k_begin, long k_end, void *arg)
{
    run(arg, i, k_begin, k_end, SOR_BLACK);
}

/* The second barrier's sequential code. */
static int combine_and_test(void *arg)
{
    struct fil *f = arg;
    double maxdiff = 0.0;
    for (int server = 0; server < f_num_servers(); ++server) {
        double *block = f_continuation_of(f->maxdiff, server);
        fold(&maxdiff, *block);
        *block = 0.0;
    }
    return sor_end_iteration(f->s, maxdiff) ? F_DONE : F_NOTDONE;
}

/* The phase of one colour: what each server creates for its strip. */
struct phase {
    struct fil *f;
    int colour;
    f_func fn;
};

/* A server's creator (f_create_per_server): the points of the phase's
 * colour in its strip of rows, each row one run, made in one call
 * (f_iterative_row). */
static int create_strip(int server, int nservers, void *arg)
{
    const struct phase *ph = arg;
    long n = ph->f->s->n;
    long end = 1 + app_strip_begin(server + 1, n, nservers);
    for (long i = 1 + app_strip_begin(server, n, nservers); i < end; ++i) {
        int rc = f_iterative_row(server, ph->fn, i, 0, sor_count(n, i, ph->colour), ph->f);
        if (rc < 0)
            return rc;
    }
    return 0;
}

/* Each server creates its strip of the phase opened last, all at once. */
static void create_phase(struct fil *f, int colour, f_func fn)
{
    struct phase ph = { f, colour, fn };
    app_check_f(f_create_per_server(create_strip, &ph), "f_create_per_server");
}

void sor_fil(void *problem, int servers)
{
    struct fil f = { problem, NULL };
    app_check_f(f_initialize(servers), "f_initialize");
    if ((f.maxdiff = f_new_continuation(sizeof(double))) == NULL)
        app_fail("f_new_continuation: out of memory");
    app_check_f(f_set_range_version(red, red_range), "f_set_range_version");
    app_check_f(f_set_range_version(black, black_range), "f_set_range_version");
    /* A point's filament may run on any server: it folds its change into
     * the running server's block, and the barrier code combines them all. */
    app_check_f(f_set_adaptive(F_ADAPT_ALL), "f_set_adaptive");
    app_check_f(f_new_barrier(NULL, NULL), "f_new_barrier");
    create_phase(&f, SOR_RED, red);
    app_check_f(f_new_barrier(combine_and_test, &f), "f_new_barrier");
    create_phase(&f, SOR_BLACK, black);
    app_check_f(f_parallel(), "f_parallel");
    f_finalize();
}
