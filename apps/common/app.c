/*
 * app.c - the driver every application shares (app.h): options, timing,
 * the check, the output line and exit status, the Filaments programs'
 * counters (app-stats.h), the digest, memory, and the coarse-grain
 * programs' threads and spin barrier.
 *
 * Options are parsed with getopt_long and strtol/strtod, checking the end
 * pointer, errno and the range: a bad value is one line on stderr and exit
 * status 2, never a crash and never a silent default.
 */
#define _POSIX_C_SOURCE 200809L

#include "app.h"
#include "app-stats.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <atomic_ops.h>
#include <filaments.h>

enum { EXIT_FAIL = 1, EXIT_USAGE = 2 };

/* The most threads or servers an app accepts (the library's own limit). */
#define APP_MAX_SERVERS 1024

static const char *app_name = "app";

/* -------------------------------------------------------------- errors */

/* Under mpirun every rank parses the options before MPI starts: only rank
 * 0 (Open MPI's OMPI_COMM_WORLD_RANK, MPICH's PMI_RANK) reports a bad one,
 * so that the output has one line. */
static int quiet_rank(void)
{
    const char *r = getenv("OMPI_COMM_WORLD_RANK");
    if (r == NULL)
        r = getenv("PMI_RANK");
    return r != NULL && strcmp(r, "0") != 0;
}

static void vreport(const char *fmt, va_list ap)
{
    fflush(stdout);
    if (!quiet_rank()) {
        fprintf(stderr, "%s: ", app_name);
        vfprintf(stderr, fmt, ap);
        fputc('\n', stderr);
    }
}

void app_report(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(fmt, ap);
    va_end(ap);
}

static APP_NORETURN APP_PRINTF(2, 3) void die(int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(fmt, ap);
    va_end(ap);
    exit(status);
}

void app_fail(const char *fmt, ...)
{
    va_list ap;
    fflush(stdout);
    fprintf(stderr, "%s: ", app_name);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(EXIT_FAIL);
}

void app_check_f(int rc, const char *what)
{
    if (rc < 0)
        app_fail("%s: %s", what, f_strerror(rc));
}

/* ------------------------------------------------------------ counters */

void app_stats_take(struct app_stats *s)
{
    struct f_stats st;
    app_check_f(f_get_stats(F_ANY, &st), "f_get_stats");
    *s = (struct app_stats){ 1, st.forks, st.pruned_forks, st.steals, st.peak_live_forks };
}

void app_stats_print(const struct app_stats *s, FILE *out)
{
    if (s->have)
        fprintf(out, " forks=%lu pruned=%lu steals=%lu peak=%lu", s->forks, s->pruned, s->steals,
                s->peak);
}

/* ------------------------------------------------------ time, digest, memory */

int app_peer_depth(int levels, int servers)
{
    int depth = levels;
    for (int p = 1; p < servers; p *= 2)
        ++depth;
    return depth;
}

double app_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

uint64_t app_digest(const void *p, size_t n)
{
    const unsigned char *b = p;
    uint64_t h = 0xcbf29ce484222325u;  /* FNV-1a 64: offset basis, prime */
    for (size_t k = 0; k < n; ++k) {
        h ^= b[k];
        h *= 0x100000001b3u;
    }
    return h;
}

size_t app_bytes_add(size_t total, size_t n, size_t size)
{
    if (size != 0 && n > (SIZE_MAX - total) / size)
        return 0;
    return total + n * size;
}

void *app_alloc(size_t n, size_t size)
{
    size_t bytes = app_bytes_add(0, n, size);
    if (bytes == 0 && n != 0 && size != 0)
        app_fail("out of memory (%zu x %zu bytes)", n, size);
    if (bytes > SIZE_MAX - APP_CACHE_LINE)
        app_fail("out of memory (%zu bytes)", bytes);
    bytes = (bytes + APP_CACHE_LINE - 1) / APP_CACHE_LINE * APP_CACHE_LINE;
    if (bytes == 0)
        bytes = APP_CACHE_LINE;
    void *p = aligned_alloc(APP_CACHE_LINE, bytes);
    if (p == NULL)
        app_fail("out of memory (%zu bytes)", bytes);
    memset(p, 0, bytes);
    return p;
}

void app_free(void *p)
{
    free(p);
}

void *app_ring_grow(void *ring, size_t head, size_t cap, size_t size)
{
    unsigned char *old = ring, *grown = app_alloc(2 * cap, size);
    memcpy(grown, old + head * size, (cap - head) * size);
    memcpy(grown + (cap - head) * size, old, head * size);
    app_free(ring);
    return grown;
}

/* ---------------------------------------------------------------- options */

enum { OPT_IMPL = 1000, OPT_SERVERS, OPT_SIZE, OPT_VERIFY, OPT_HELP, OPT_EXTRA = 2000 };

static int online_cpus(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > APP_MAX_SERVERS ? APP_MAX_SERVERS : (int)n;
}

/* "an integer from 1 to 1024" */
static void print_long_range(char *buf, size_t len, long min, long max)
{
    snprintf(buf, len, "an integer from %ld to %ld", min, max);
}

static long parse_long(const char *opt, const char *s, long min, long max)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0' || v < min || v > max) {
        char range[96];
        print_long_range(range, sizeof range, min, max);
        die(EXIT_USAGE, "--%s: expected %s, got '%s'", opt, range, s);
    }
    return v;
}

static double parse_double(const struct app_option *o, const char *s)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    int ok = errno == 0 && end != s && *end == '\0' && isfinite(v) &&
             (o->open_min ? v > o->min : v >= o->min) && (o->open_max ? v < o->max : v <= o->max);
    if (!ok) {
        char range[128];
        if (o->max >= 1e300)
            snprintf(range, sizeof range, "a number %s %g", o->open_min ? ">" : ">=", o->min);
        else
            snprintf(range, sizeof range, "a number %s %g %s %g",
                     o->open_min ? "greater than" : "from", o->min,
                     o->open_max ? "and less than" : "to", o->max);
        die(EXIT_USAGE, "--%s: expected %s, got '%s'", o->name, range, s);
    }
    return v;
}

/* The names of a choice into buf, as "binomial, geometric". */
static void print_choices(char *buf, size_t len, const char *const *choices)
{
    buf[0] = '\0';
    for (const char *const *c = choices; *c != NULL; ++c) {
        if (c != choices)
            strncat(buf, ", ", len - strlen(buf) - 1);
        strncat(buf, *c, len - strlen(buf) - 1);
    }
}

static long parse_choice(const struct app_option *o, const char *s)
{
    const char *const *names = ((const struct app_choice *)o->value)->names;
    for (const char *const *c = names; *c != NULL; ++c)
        if (strcmp(*c, s) == 0)
            return c - names;
    char list[256];
    print_choices(list, sizeof list, names);
    die(EXIT_USAGE, "--%s: expected one of %s, got '%s'", o->name, list, s);
}

/* The metavariable of an option's value in the usage: N, X or NAME. */
static const char *metavar(const struct app_option *o)
{
    return o->type == APP_LONG ? "N" : o->type == APP_DOUBLE ? "X" : "NAME";
}

static void usage(const struct app *app)
{
    printf("usage: %s [--impl=NAME] [--servers=N] [--size=N] [--verify]", app->name);
    for (const struct app_option *o = app->options; o != NULL && o->name != NULL; ++o)
        printf(" [--%s=%s]", o->name, metavar(o));
    printf("\n\n  --impl=NAME   the program to run (default %s):\n", app->impls[0].name);
    for (const struct app_impl *im = app->impls; im->name != NULL; ++im)
        printf("      %-12s %s\n", im->name, im->help);
    printf("  --servers=N   threads or servers, 1 to %d (default: 1 for the sequential\n"
           "                programs, else one per online core, here %d)\n",
           APP_MAX_SERVERS, online_cpus());
    printf("  --size=N      problem size, %ld to %ld (default %ld)\n", app->size_min,
           app->size_max, app->size_default);
    printf("  --verify      also run %s and compare the result bitwise\n", app->impls[0].name);
    for (const struct app_option *o = app->options; o != NULL && o->name != NULL; ++o) {
        char name[64];
        snprintf(name, sizeof name, "%s=%s", o->name, metavar(o));
        if (o->type == APP_LONG)
            printf("  --%-12s%s (default %ld)\n", name, o->help, *(const long *)o->value);
        else if (o->type == APP_CHOICE) {
            const struct app_choice *c = o->value;
            char list[256];
            print_choices(list, sizeof list, c->names);
            printf("  --%-12s%s: %s (default %s)\n", name, o->help, list, c->names[c->chosen]);
        } else
            printf("  --%-12s%s (default %g)\n", name, o->help, *(const double *)o->value);
    }
    printf("  --help        this text\n\n"
           "Prints one line: app= impl= servers= size= ... seconds= check= digest=\n");
    if (app->mpi != NULL)
        printf("The mpi programs run under mpirun -np R, --servers per rank; rank 0 prints\n"
               "the line, with ranks=R.  A rank count it cannot use (more ranks than rows)\n"
               "is a bad option.\n");
    printf("Exit status: 0 check=ok, 1 check=FAIL or an error, 2 a bad option.\n");
}

static const struct app_impl *find_impl(const struct app *app, const char *name)
{
    for (const struct app_impl *im = app->impls; im->name != NULL; ++im)
        if (strcmp(im->name, name) == 0)
            return im;
    char list[256] = "";
    for (const struct app_impl *im = app->impls; im->name != NULL; ++im) {
        if (im != app->impls)
            strncat(list, ", ", sizeof list - strlen(list) - 1);
        strncat(list, im->name, sizeof list - strlen(list) - 1);
    }
    die(EXIT_USAGE, "--impl: expected one of %s, got '%s'", list, name);
}

static double physical_memory(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? (double)pages * (double)page : INFINITY;
}

static void check_memory(const struct app *app, long size)
{
    size_t bytes = app->bytes(size);
    if (bytes == 0)
        die(EXIT_USAGE, "--size: %ld needs more memory than size_t can count", size);
    double mem = physical_memory();
    if ((double)bytes > mem)
        die(EXIT_USAGE, "--size: %ld needs %.1f GiB, more than the %.1f GiB of memory here",
            size, (double)bytes / (1 << 30), mem / (1 << 30));
}

/* The length of "--name" in "--name=value". */
static int name_len(const char *arg)
{
    return (int)strcspn(arg, "=");
}

static struct app_args parse(const struct app *app, int argc, char **argv)
{
    struct option longopts[64] = {
        { "impl", required_argument, NULL, OPT_IMPL },
        { "servers", required_argument, NULL, OPT_SERVERS },
        { "size", required_argument, NULL, OPT_SIZE },
        { "verify", no_argument, NULL, OPT_VERIFY },
        { "help", no_argument, NULL, OPT_HELP },
    };
    int nopts = 5, nextra = 0;
    for (const struct app_option *o = app->options; o != NULL && o->name != NULL; ++o) {
        if (nopts >= (int)(sizeof longopts / sizeof *longopts) - 1)
            die(EXIT_FAIL, "too many options");  /* a bug in the app, not in argv */
        longopts[nopts++] =
            (struct option){ o->name, required_argument, NULL, OPT_EXTRA + nextra++ };
    }

    struct app_args args = { .impl = &app->impls[0], .servers = 0, .size = app->size_default };
    const char *servers = NULL;
    opterr = 0;
    for (int c; (c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1;) {
        switch (c) {
        case OPT_IMPL: args.impl = find_impl(app, optarg); break;
        case OPT_SERVERS: servers = optarg; break;
        case OPT_SIZE: args.size = parse_long("size", optarg, app->size_min, app->size_max); break;
        case OPT_VERIFY: args.verify = 1; break;
        case 'h':
        case OPT_HELP: usage(app); exit(0);
        case ':':
            die(EXIT_USAGE, "%.*s: expected a value", name_len(argv[optind - 1]), argv[optind - 1]);
        case '?':
            /* optopt: the option's value if it exists but takes no value,
             * the letter of an unknown short option, 0 for an unknown long one. */
            if (optopt >= OPT_IMPL)
                die(EXIT_USAGE, "%.*s: takes no value", name_len(argv[optind - 1]),
                    argv[optind - 1]);
            if (optopt != 0)
                die(EXIT_USAGE, "unknown option '-%c' (try --help)", optopt);
            die(EXIT_USAGE, "unknown or ambiguous option '%.*s' (try --help)",
                name_len(argv[optind - 1]), argv[optind - 1]);
        default: {
            const struct app_option *o = &app->options[c - OPT_EXTRA];
            if (o->type == APP_LONG)
                *(long *)o->value = parse_long(o->name, optarg, (long)o->min, (long)o->max);
            else if (o->type == APP_CHOICE)
                ((struct app_choice *)o->value)->chosen = parse_choice(o, optarg);
            else
                *(double *)o->value = parse_double(o, optarg);
        }
        }
    }
    if (optind < argc)
        die(EXIT_USAGE, "unexpected argument '%s' (try --help)", argv[optind]);

    if (!(args.impl->parallel & APP_PARALLEL)) {
        if (servers != NULL && parse_long("servers", servers, 1, APP_MAX_SERVERS) != 1)
            die(EXIT_USAGE, "--servers: impl '%s' is sequential: expected 1, got '%s'",
                args.impl->name, servers);
        args.servers = 1;
    } else {
        args.servers = servers != NULL ? (int)parse_long("servers", servers, 1, APP_MAX_SERVERS)
                                       : online_cpus();
    }
    check_memory(app, args.size);
    return args;
}

/* ------------------------------------------------------------- the driver */

static int same_result(const struct app *app, void *problem, void *reference)
{
    size_t n, nref;
    const unsigned char *r = app->result(problem, &n), *ref = app->result(reference, &nref);
    if (n != nref) {
        fprintf(stderr, "%s: --verify: %zu result bytes, %s has %zu\n", app->name, n,
                app->impls[0].name, nref);
        return 0;
    }
    for (size_t k = 0; k < n; ++k) {
        if (r[k] != ref[k]) {
            fprintf(stderr, "%s: --verify: result differs from %s's at byte %zu of %zu\n",
                    app->name, app->impls[0].name, k, n);
            return 0;
        }
    }
    return 1;
}

int app_main(const struct app *app, int argc, char **argv)
{
    app_name = app->name;
    struct app_args args = parse(app, argc, argv);

    const struct app_mpi *mpi = args.impl->parallel & APP_MPI ? app->mpi : NULL;
    int rank = 0, ranks = 1;
    if (mpi != NULL)
        mpi->begin(&argc, &argv, &rank, &ranks);
    void *problem = app->create(&args);
    if (problem == NULL)
        app_fail("out of memory");
    if (mpi != NULL)
        mpi->sync();
    double t0 = app_now();
    args.impl->run(problem, args.servers);
    if (mpi != NULL)
        mpi->sync();
    double seconds = app_now() - t0;
    if (mpi != NULL) {
        mpi->collect(problem);
        if (rank != 0) {
            app->destroy(problem);
            mpi->end();
            return 0;
        }
    }

    int ok = app->check(problem);
    if (args.verify) {
        struct app_args seq = args;
        seq.impl = &app->impls[0];
        seq.servers = 1;
        void *reference = app->create(&seq);
        if (reference == NULL)
            app_fail("--verify: out of memory");
        seq.impl->run(reference, 1);
        ok = same_result(app, problem, reference) && ok;
        app->destroy(reference);
    }

    size_t n;
    const void *result = app->result(problem, &n);
    printf("app=%s impl=%s servers=%d size=%ld", app->name, args.impl->name, args.servers,
           args.size);
    if (mpi != NULL)
        printf(" ranks=%d", ranks);
    if (app->fields != NULL)
        app->fields(problem, stdout);
    printf(" seconds=%.6f check=%s digest=%016llx\n", seconds, ok ? "ok" : "FAIL",
           (unsigned long long)app_digest(result, n));
    app->destroy(problem);
    if (fflush(stdout) != 0 || ferror(stdout))
        app_fail("stdout: %s", strerror(errno));
    if (mpi != NULL)
        mpi->end();
    return ok ? 0 : EXIT_FAIL;
}

/* ---------------------------------------------------------------- threads */

struct thread_arg {
    int t;
    void (*fn)(int t, void *arg);
    void *arg;
};

static void *thread_main(void *p)
{
    struct thread_arg *a = p;
    a->fn(a->t, a->arg);
    return NULL;
}

void app_threads_run(int n, void (*fn)(int t, void *arg), void *arg)
{
    pthread_t *tid = app_alloc((size_t)n, sizeof *tid);
    struct thread_arg *ta = app_alloc((size_t)n, sizeof *ta);
    for (int t = 0; t < n; ++t) {
        ta[t] = (struct thread_arg){ t, fn, arg };
        int rc = pthread_create(&tid[t], NULL, thread_main, &ta[t]);
        if (rc != 0)
            app_fail("pthread_create: %s", strerror(rc));
    }
    for (int t = 0; t < n; ++t)
        pthread_join(tid[t], NULL);
    app_free(ta);
    app_free(tid);
}

/* ---------------------------------------------------------------- barrier */

_Static_assert(sizeof(AO_t) == sizeof(size_t), "app_barrier words are AO_t");

/* Polls with a pause before each sched_yield(): fewer when the threads
 * outnumber the cores, which need the core we would spin on. */
#define SPIN_POLLS 2000
#define SPIN_POLLS_OVERSUBSCRIBED 20

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield" ::: "memory");
#else
    AO_compiler_barrier();
#endif
}

void app_barrier_init(struct app_barrier *b, int n)
{
    AO_store((volatile AO_t *)&b->count, 0);
    AO_store((volatile AO_t *)&b->sense, 0);
    b->n = (size_t)n;
    b->spin = n > online_cpus() ? SPIN_POLLS_OVERSUBSCRIBED : SPIN_POLLS;
}

void app_barrier_wait(struct app_barrier *b, struct app_barrier_self *self,
                      void (*serial)(void *arg), void *arg)
{
    volatile AO_t *count = (volatile AO_t *)&b->count, *sense = (volatile AO_t *)&b->sense;
    AO_t s = self->sense ^= 1;
    /* Full: release this thread's writes to the last arrival and, if we are
     * the last, acquire everybody's for serial(). */
    if (AO_fetch_and_add1_full(count) == b->n - 1) {
        AO_store(count, 0);  /* ordered by the release below */
        if (serial != NULL)
            serial(arg);
        /* Release: serial()'s writes and the reset; pairs with the loop below. */
        AO_store_release(sense, s);
        return;
    }
    for (size_t k = 0; AO_load_acquire(sense) != s; ++k) {
        if (k < b->spin)
            cpu_relax();
        else
            sched_yield();
    }
}

double app_slots_max(const struct app_slot *slot, int n)
{
    double max = 0.0;
    for (int t = 0; t < n; ++t)
        if (slot[t].v > max)
            max = slot[t].v;
    return max;
}
