/*
 * check_create.c - suite "create": creation by the servers,
 * f_create_per_server [paper §2.1, §2.2, §4.3].
 *
 * Each server's creator makes the filaments of its strip of rows: RTC rows
 * (which the library packs), RTC filaments that no packing joins, F_ANY,
 * iterative runs, point by point and a row per call (f_iterative_row),
 * F_ANY iterative filaments (placed on the creator's server),
 * variable-argument ones of both kinds.  Every filament runs as
 * many times as it should, on its strip's server; the main thread's
 * filaments before and after the call run too, in order, and a run the main
 * thread began may be extended by a creator.  Every misuse inside a creator
 * makes the whole call fail with its code and leaves nothing of it behind,
 * the main thread's filaments included as they were (errors), also when
 * an allocation fails, each in turn (the failure-injection hook of
 * lib/memory.c); results are bitwise those of main-thread creation.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "memory.h"    /* fi_alloc_fail_reset: failure injection */
#include "tests.h"

/* --------------------------------------------------------------- jobs */

/* What each creator makes, for its strip of `rows` rows of `cols` points. */
enum kind { RTC_ROWS, RTC_SPREAD, RTC_ANY, ITER, ITER_ANY, ITER_ROW, VRTC, VITER, NKINDS };
#define ALL_KINDS ((1 << NKINDS) - 1)
#define RTC_KINDS ((1 << RTC_ROWS) | (1 << RTC_SPREAD) | (1 << RTC_ANY) | (1 << VRTC))
#define ITER_KINDS ((1 << ITER) | (1 << ITER_ANY) | (1 << ITER_ROW) | (1 << VITER))

/* The misuse one creator commits after creating its share (errors). */
enum misuse {
    NONE,
    RTC_OTHER,      /* f_rtc_thread for the next server: F_ESTATE */
    RTC_INDEX,      /* f_rtc_thread for server nservers: F_EINVAL */
    RTC_BELOW_ANY,  /* f_rtc_thread for server -2: F_EINVAL */
    RTC_NULL,       /* f_rtc_thread with no function: F_EINVAL */
    ITER_OTHER,     /* f_iterative_thread for the next server: F_ESTATE */
    ITER_INDEX,
    ITER_NULL,
    ROW_OTHER,      /* f_iterative_row for the next server: F_ESTATE */
    ROW_BACKWARD,   /* f_iterative_row with j_end < j_begin: F_EINVAL */
    VRTC_OTHER,     /* f_rtc_vthread for the next server: F_ESTATE */
    VRTC_FORMAT,    /* f_rtc_vthread with a bad format: F_EINVAL */
    VITER_OTHER,
    VITER_FORMAT,
    RETURN_CODE,    /* the creator returns -77 */
    NMISUSES
};

struct job {
    int kinds;            /* 1 << enum kind */
    long rows, cols;      /* rows in all (dealt in strips), points per row */
    int only;             /* -1: every server creates; else only this one */
    int around;           /* the main thread's rows before, extended by the creators */
    enum misuse misuse;
    int misuser;          /* the server that commits it */
    int got;              /* the code its call returned (written by that server) */
    struct t_record *r[NKINDS];
    struct t_record *main; /* the main thread's rows: 2 * cols points per server */
    atomic_int calls;     /* creator calls */
    atomic_int bad;       /* a creator saw arguments it should not have */
};

static long strip_begin(int t, long rows, int parts)
{
    return ((long)t * rows + parts - 1) / parts;
}

static int strip_of(long i, long rows, int parts)
{
    return (int)(i * parts / rows);
}

static void rec_point(long i, long j, void *arg);
static void rec_spread(long i, long j, void *arg);
static void rec_any(long i, long j, void *arg);
static void rec_iter(long i, long j, void *arg);
static void rec_iter_any(long i, long j, void *arg);
static void rec_iter_row(long i, long j, void *arg);
static void rec_main(long i, long j, void *arg);

#define REC(kind, fn)                                                          \
    static void fn(long i, long j, void *arg)                                  \
    {                                                                          \
        struct job *jb = arg;                                                  \
        t_record_hit(jb->r[kind], i * jb->cols + (kind == RTC_SPREAD ? j / 2 : j)); \
    }
REC(RTC_ROWS, rec_point)
REC(RTC_SPREAD, rec_spread)
REC(RTC_ANY, rec_any)
REC(ITER, rec_iter)
REC(ITER_ANY, rec_iter_any)
REC(ITER_ROW, rec_iter_row)
#undef REC

/* Variable-argument filaments: (record, index). */
static void rec_v(const f_value *a)
{
    t_record_hit(a[0].p, a[1].l);
}

/* The main thread's rows: row 1000 + s on server s, points 0 .. 2 cols - 1. */
static void rec_main(long i, long j, void *arg)
{
    struct job *jb = arg;
    t_record_hit(jb->main, (i - 1000) * 2 * jb->cols + j);
}

static struct job *job_new(int kinds, long rows, long cols)
{
    struct job *jb = calloc(1, sizeof *jb);
    ck_assert_ptr_nonnull(jb);
    jb->kinds = kinds;
    jb->rows = rows;
    jb->cols = cols;
    jb->only = -1;
    jb->misuser = -1;
    for (int k = 0; k < NKINDS; ++k)
        jb->r[k] = t_record_new(kinds & (1 << k) ? rows * cols : 0);
    jb->main = t_record_new(2 * cols * f_num_servers());
    atomic_init(&jb->calls, 0);
    atomic_init(&jb->bad, 0);
    return jb;
}

static void job_free(struct job *jb)
{
    for (int k = 0; k < NKINDS; ++k)
        t_record_free(jb->r[k]);
    t_record_free(jb->main);
    free(jb);
}

/* Create one filament of a kind for point (i, j) of server s's strip. */
static int create_one(struct job *jb, enum kind kind, int s, long i, long j)
{
    long k = i * jb->cols + j;
    switch (kind) {
    case RTC_ROWS: return f_rtc_thread(s, rec_point, i, j, jb);
    case RTC_SPREAD: return f_rtc_thread(s, rec_spread, i, 2 * j, jb);  /* never a row */
    case RTC_ANY: return f_rtc_thread(F_ANY, rec_any, i, j, jb);
    case ITER: return f_iterative_thread(s, rec_iter, i, j, jb);
    case ITER_ANY: return f_iterative_thread(F_ANY, rec_iter_any, i, j, jb);
    case VRTC: return f_rtc_vthread(s, rec_v, "pl", (void *)jb->r[VRTC], k);
    case VITER: return f_iterative_vthread(F_ANY, rec_v, "pl", (void *)jb->r[VITER], k);
    default: return F_EINVAL;
    }
}

static int misuse(struct job *jb, int s, int n)
{
    int other = (s + 1) % n;
    switch (jb->misuse) {
    case RTC_OTHER: return f_rtc_thread(other, rec_point, 0, 0, jb);
    case RTC_INDEX: return f_rtc_thread(n, rec_point, 0, 0, jb);
    case RTC_BELOW_ANY: return f_rtc_thread(-2, rec_point, 0, 0, jb);
    case RTC_NULL: return f_rtc_thread(s, NULL, 0, 0, jb);
    case ITER_OTHER: return f_iterative_thread(other, rec_iter, 0, 0, jb);
    case ITER_INDEX: return f_iterative_thread(n, rec_iter, 0, 0, jb);
    case ITER_NULL: return f_iterative_thread(s, NULL, 0, 0, jb);
    case ROW_OTHER: return f_iterative_row(other, rec_iter_row, 0, 0, 3, jb);
    case ROW_BACKWARD: return f_iterative_row(s, rec_iter_row, 0, 3, 2, jb);
    case VRTC_OTHER: return f_rtc_vthread(other, rec_v, "pl", (void *)jb->r[VRTC], 0L);
    case VRTC_FORMAT: return f_rtc_vthread(s, rec_v, "px", (void *)jb->r[VRTC], 0L);
    case VITER_OTHER: return f_iterative_vthread(other, rec_v, "pl", (void *)jb->r[VITER], 0L);
    case VITER_FORMAT: return f_iterative_vthread(s, rec_v, "p?", (void *)jb->r[VITER], 0L);
    default: return F_OK;
    }
}

/* The creator: the main thread's row on this server goes on (around), so
 * that the row crosses the call's start (in one call of f_iterative_row
 * when the job has that kind); then every kind asked for, over the
 * server's strip, row by row, a call per point or per row (ITER_ROW); then
 * the misuse, if this is the server to commit it. */
static int creator(int s, int n, void *arg)
{
    struct job *jb = arg;
    atomic_fetch_add(&jb->calls, 1);
    if (s < 0 || s >= n || n != f_num_servers() || f_my_server() != s)
        atomic_fetch_add(&jb->bad, 1);
    if (jb->only >= 0 && s != jb->only)
        return 0;
    if (jb->around && jb->kinds & (1 << ITER_ROW)) {
        int rc = f_iterative_row(s, rec_main, 1000 + s, jb->cols, 2 * jb->cols, jb);
        if (rc < 0)
            return rc;
    } else if (jb->around) {
        for (long j = jb->cols; j < 2 * jb->cols; ++j) {
            int rc = jb->kinds & ITER_KINDS ? f_iterative_thread(s, rec_main, 1000 + s, j, jb)
                                            : f_rtc_thread(s, rec_main, 1000 + s, j, jb);
            if (rc < 0)
                return rc;
        }
    }
    long i0 = strip_begin(s, jb->rows, n), i1 = strip_begin(s + 1, jb->rows, n);
    for (int kind = 0; kind < NKINDS; ++kind) {
        if (!(jb->kinds & (1 << kind)))
            continue;
        for (long i = i0; i < i1; ++i) {
            if (kind == ITER_ROW) {
                int rc = f_iterative_row(s, rec_iter_row, i, 0, jb->cols, jb);
                if (rc < 0)
                    return rc;
                continue;
            }
            for (long j = 0; j < jb->cols; ++j) {
                int rc = create_one(jb, kind, s, i, j);
                if (rc < 0)
                    return rc;
            }
        }
    }
    if (s == jb->misuser) {
        if (jb->misuse == RETURN_CODE)
            return jb->got = -77;
        jb->got = misuse(jb, s, n);
    }
    return 0;
}

/* The main thread's share before the call (around): row 1000 + s on each
 * server s, points 0 .. cols - 1, which the creator continues. */
static void main_before(struct job *jb)
{
    for (int s = 0; s < f_num_servers(); ++s)
        for (long j = 0; j < jb->cols; ++j)
            T_REQUIRE_EQ(jb->kinds & ITER_KINDS ? f_iterative_thread(s, rec_main, 1000 + s, j, jb)
                                                : f_rtc_thread(s, rec_main, 1000 + s, j, jb),
                         F_OK);
}

static long passes_left;

static int count_down(void *arg)
{
    return --passes_left > 0 ? F_NOTDONE : F_DONE;
}

/* A phase for the iterative kinds, of `passes` passes. */
static void open_phase(long passes)
{
    passes_left = passes;
    ck_assert_int_ge(f_new_barrier(count_down, NULL), 0);
}

/*
 * After f_parallel: each kind asked for ran `times` times per point (RTC
 * once, iterative `passes`), on its strip's server (F_ANY RTC anywhere);
 * created: whether the call succeeded (else nothing of it ran).  The main
 * thread's rows: the first half always, the second half if created.
 */
static void check_job(struct job *jb, int created, long passes)
{
    int n = f_num_servers();
    T_ASSERT_NO_FAILURES();
    ck_assert_int_eq(t_ldi(&jb->calls), n);
    ck_assert_int_eq(t_ldi(&jb->bad), 0);
    for (int kind = 0; kind < NKINDS; ++kind) {
        struct t_record *r = jb->r[kind];
        int asked = (jb->kinds >> kind) & 1;
        int times = !asked || !created ? 0 : (1 << kind) & ITER_KINDS ? (int)passes : 1;
        for (long k = 0; k < r->n; ++k) {
            long i = k / jb->cols;
            int owner = strip_of(i, jb->rows, n);
            int want = jb->only >= 0 && owner != jb->only ? 0 : times;
            if (t_ldi(&r->runs[k]) != want)
                ck_abort_msg("kind %d, point %ld: ran %ld times, not %d", kind, k,
                             t_ldi(&r->runs[k]), want);
            if (want > 0 && kind != RTC_ANY)
                T_REQUIRE_EQ(r->server[k], owner);
        }
    }
    if (jb->around) {
        int times = jb->kinds & ITER_KINDS ? (int)passes : 1;
        for (long k = 0; k < jb->main->n; ++k) {
            int want = k % (2 * jb->cols) < jb->cols || created ? times : 0;
            if (t_ldi(&jb->main->runs[k]) != want)
                ck_abort_msg("main point %ld: ran %ld times, not %d", k,
                             t_ldi(&jb->main->runs[k]), want);
            if (want > 0)
                T_REQUIRE_EQ(jb->main->server[k], k / (2 * jb->cols));
        }
    }
}

/* One job: a phase if it has iterative kinds, the call (expecting rc), the
 * run, the check. */
static void run_job(struct job *jb, int rc_want)
{
    long passes = 3;
    if (jb->kinds & ITER_KINDS)
        open_phase(passes);
    if (jb->around)
        main_before(jb);
    ck_assert_int_eq(f_create_per_server(creator, jb), rc_want);
    ck_assert_int_eq(f_parallel(), F_OK);
    check_job(jb, rc_want == F_OK, passes);
}

/* --------------------------------------------------------------- core */

/* Every kind, each server its strip; the main thread's rows around. */
START_TEST(test_create_every_kind)
{
    int n = t_start_loop(_i);
    struct job *jb = job_new(ALL_KINDS, 6L * n + 1, 300);
    jb->around = 1;
    run_job(jb, F_OK);
    job_free(jb);
}
END_TEST

/* RTC alone, long packed rows: more than a chunk per server. */
START_TEST(test_create_rtc_rows)
{
    int n = t_start_loop(_i);
    struct job *jb = job_new(1 << RTC_ROWS, 4L * n, t_scaled(2000));
    jb->around = 1;
    run_job(jb, F_OK);
    job_free(jb);
}
END_TEST

/* Iterative alone, the main thread's runs extended by the creators, point
 * by point, then by rows. */
START_TEST(test_create_iterative)
{
    int n = t_start_loop(_i);
    struct job *jb = job_new((1 << ITER) | (1 << ITER_ANY), 5L * n, 70);
    jb->around = 1;
    run_job(jb, F_OK);
    job_free(jb);
    jb = job_new((1 << ITER_ROW) | (1 << ITER_ANY), 5L * n, 70);
    jb->around = 1;
    run_job(jb, F_OK);
    job_free(jb);
}
END_TEST

/* Per server, the order of creation: main's points before the call, the
 * creator's, main's after, as one row (packed across the boundaries). */
struct order {
    struct t_logs *logs;
    long m;
};

static void log_j(long i, long j, void *arg)
{
    struct order *o = arg;
    T_EXPECT(i == f_my_server());
    t_log(o->logs, j);
}

static int order_creator(int s, int n, void *arg)
{
    struct order *o = arg;
    for (long j = o->m; j < 2 * o->m; ++j) {
        int rc = f_rtc_thread(s, log_j, s, j, o);
        if (rc < 0)
            return rc;
    }
    return 0;
}

START_TEST(test_create_order)
{
    int n = t_start_loop(_i);
    struct order o = { t_logs_new(n, 3000), 1000 };
    for (int round = 0; round < 2; ++round) {
        t_logs_clear(o.logs);
        for (int s = 0; s < n; ++s)
            for (long j = 0; j < o.m; ++j)
                T_REQUIRE_EQ(f_rtc_thread(s, log_j, s, j, &o), F_OK);
        ck_assert_int_eq(f_create_per_server(order_creator, &o), F_OK);
        for (int s = 0; s < n; ++s)
            for (long j = 2 * o.m; j < 3 * o.m; ++j)
                T_REQUIRE_EQ(f_rtc_thread(s, log_j, s, j, &o), F_OK);
        ck_assert_int_eq(f_parallel(), F_OK);
        T_ASSERT_NO_FAILURES();
        for (int s = 0; s < n; ++s) {
            ck_assert_uint_eq(o.logs->len[s], 3 * o.m);
            for (long j = 0; j < 3 * o.m; ++j)
                T_REQUIRE_EQ(o.logs->v[s][j], j);
        }
    }
    t_logs_free(o.logs);
}
END_TEST

/* Several calls before one f_parallel, and many create-and-run cycles: each
 * f_parallel consumes what was created, and a second one finds nothing. */
START_TEST(test_create_repeated)
{
    int n = t_start_loop(_i);
    for (int cycle = 0; cycle < 20; ++cycle) {
        struct job *jb[3];
        int calls = 1 + cycle % 3;
        for (int c = 0; c < calls; ++c) {
            jb[c] = job_new(RTC_KINDS, 2L * n, 50);
            ck_assert_int_eq(f_create_per_server(creator, jb[c]), F_OK);
        }
        ck_assert_int_eq(f_parallel(), F_OK);
        ck_assert_int_eq(f_parallel(), F_OK);
        for (int c = 0; c < calls; ++c) {
            check_job(jb[c], 1, 1);
            job_free(jb[c]);
        }
    }
}
END_TEST

/* Results bitwise equal to main-thread creation: a small matrix product
 * (RTC, one filament per entry) and a Jacobi iteration (iterative, with a
 * reduction and a barrier), each created both ways, and the iteration
 * by rows in the creators as well. */
#define MN 37
struct mm {
    double a[MN][MN], b[MN][MN], c[MN][MN];
};

static void mm_entry(long i, long j, void *arg)
{
    struct mm *m = arg;
    double sum = 0.0;
    for (int k = 0; k < MN; ++k)
        sum += m->a[i][k] * m->b[k][j];
    m->c[i][j] = sum;
}

static int mm_creator(int s, int n, void *arg)
{
    for (long i = strip_begin(s, MN, n); i < strip_begin(s + 1, MN, n); ++i)
        for (long j = 0; j < MN; ++j) {
            int rc = f_rtc_thread(s, mm_entry, i, j, arg);
            if (rc < 0)
                return rc;
        }
    return 0;
}

#define JN 30
struct jac {
    double g[2][JN + 2][JN + 2];
    int cur;
    long iters;
    f_reduction *maxdiff;
    double last;
};

static void jac_point(long i, long j, void *arg)
{
    struct jac *p = arg;
    double (*old)[JN + 2] = p->g[p->cur], (*new)[JN + 2] = p->g[1 - p->cur];
    new[i][j] = (old[i - 1][j] + old[i + 1][j] + old[i][j - 1] + old[i][j + 1]) * 0.25;
    f_reduce(p->maxdiff, new[i][j] > old[i][j] ? new[i][j] - old[i][j] : old[i][j] - new[i][j]);
}

static int jac_end(void *arg)
{
    struct jac *p = arg;
    p->last = f_reduction_value(p->maxdiff);
    f_reduction_reset(p->maxdiff);
    p->cur = 1 - p->cur;
    return ++p->iters == 25 ? F_DONE : F_NOTDONE;
}

static int jac_creator(int s, int n, void *arg)
{
    for (long i = 1 + strip_begin(s, JN, n); i < 1 + strip_begin(s + 1, JN, n); ++i)
        for (long j = 1; j <= JN; ++j) {
            int rc = f_iterative_thread(s, jac_point, i, j, arg);
            if (rc < 0)
                return rc;
        }
    return 0;
}

/* The same rows, each in one call. */
static int jac_row_creator(int s, int n, void *arg)
{
    for (long i = 1 + strip_begin(s, JN, n); i < 1 + strip_begin(s + 1, JN, n); ++i) {
        int rc = f_iterative_row(s, jac_point, i, 1, JN + 1, arg);
        if (rc < 0)
            return rc;
    }
    return 0;
}

static void jac_init(struct jac *p)
{
    memset(p, 0, sizeof *p);
    uint64_t seed = 7;
    for (int i = 0; i < JN + 2; ++i)
        for (int j = 0; j < JN + 2; ++j)
            p->g[0][i][j] = p->g[1][i][j] =
                (i == 0 || j == 0 || i == JN + 1 || j == JN + 1)
                    ? (double)((seed = seed * 6364136223846793005u + 1) >> 40) / 1e6
                    : 0.0;
    p->maxdiff = f_new_reduction(F_MAX);
    ck_assert_ptr_nonnull(p->maxdiff);
}

START_TEST(test_create_bitwise_equal)
{
    int n = t_start_loop(_i);
    static struct mm m[2];
    uint64_t seed = 3;
    for (int i = 0; i < MN; ++i)
        for (int j = 0; j < MN; ++j) {
            seed = seed * 6364136223846793005u + 1;
            m[0].a[i][j] = m[1].a[i][j] = (double)(seed >> 11);
            seed = seed * 6364136223846793005u + 1;
            m[0].b[i][j] = m[1].b[i][j] = 1.0 / (double)(seed >> 40 | 1);
        }
    for (long i = 0; i < MN; ++i)
        for (long j = 0; j < MN; ++j)
            T_REQUIRE_EQ(f_rtc_thread(strip_of(i, MN, n), mm_entry, i, j, &m[0]), F_OK);
    ck_assert_int_eq(f_parallel(), F_OK);
    ck_assert_int_eq(f_create_per_server(mm_creator, &m[1]), F_OK);
    ck_assert_int_eq(f_parallel(), F_OK);
    ck_assert(memcmp(m[0].c, m[1].c, sizeof m[0].c) == 0);

    static struct jac p[3];
    for (int way = 0; way < 3; ++way) {
        jac_init(&p[way]);
        ck_assert_int_ge(f_new_barrier(jac_end, &p[way]), 0);
        if (way == 0) {
            for (long i = 1; i <= JN; ++i)
                for (long j = 1; j <= JN; ++j)
                    T_REQUIRE_EQ(f_iterative_thread(strip_of(i - 1, JN, n), jac_point, i, j, &p[0]),
                                 F_OK);
        } else {
            f_create_func create = way == 1 ? jac_creator : jac_row_creator;
            ck_assert_int_eq(f_create_per_server(create, &p[way]), F_OK);
        }
        ck_assert_int_eq(f_parallel(), F_OK);
        f_free_reduction(p[way].maxdiff);
    }
    ck_assert_int_eq(p[0].iters, 25);
    for (int way = 1; way < 3; ++way) {
        ck_assert_int_eq(p[way].iters, 25);
        ck_assert(memcmp(p[0].g, p[way].g, sizeof p[0].g) == 0);
        ck_assert(memcmp(&p[0].last, &p[way].last, sizeof p[0].last) == 0);
    }
}
END_TEST

/* ------------------------------------------------------------- errors */

static int empty_creator(int s, int n, void *arg)
{
    return 0;
}

/* The call itself: F_ESTATE before f_initialize (NULL creator too: state
 * first), after f_finalize, from a filament, from barrier code; F_EINVAL
 * for a NULL creator. */
static void from_filament(long i, long j, void *arg)
{
    T_EXPECT(f_create_per_server(empty_creator, NULL) == F_ESTATE);
    T_EXPECT(f_create_per_server(NULL, NULL) == F_ESTATE);
}

static int from_barrier(void *arg)
{
    T_EXPECT(f_create_per_server(empty_creator, NULL) == F_ESTATE);
    return F_DONE;
}

START_TEST(test_create_errors_call)
{
    ck_assert_int_eq(f_create_per_server(empty_creator, NULL), F_ESTATE);
    ck_assert_int_eq(f_create_per_server(NULL, NULL), F_ESTATE);
    int n = t_start_loop(_i);
    ck_assert_int_eq(f_create_per_server(NULL, NULL), F_EINVAL);
    for (int s = 0; s < n; ++s)
        ck_assert_int_eq(f_rtc_thread(s, from_filament, 0, 0, NULL), F_OK);
    ck_assert_int_ge(f_new_barrier(from_barrier, NULL), 0);
    ck_assert_int_eq(f_parallel(), F_OK);
    T_ASSERT_NO_FAILURES();
    t_assert_library_works();
    f_finalize();
    ck_assert_int_eq(f_create_per_server(empty_creator, NULL), F_ESTATE);
}
END_TEST

/* Inside a creator, what is not creation for its own server is refused,
 * and does not fail the call: phases, untyped forks, joins, runs, calls
 * only the main thread may make. */
static atomic_long forked_ran;

/* A typed child that would count itself in forked_ran, as t_count_fn. */
static long forked_long(f_frame fr, long i, long j, void *arg)
{
    return atomic_fetch_add((atomic_long *)arg, 1) + 1;
}

static void other_thread_calls(void)
{
    T_EXPECT(f_rtc_thread(0, t_count_fn, 0, 0, &forked_ran) == F_ESTATE);
    T_EXPECT(f_create_per_server(empty_creator, NULL) == F_ESTATE);
    T_EXPECT(f_parallel() == F_ESTATE);
    T_EXPECT(f_new_barrier(NULL, NULL) == F_ESTATE);
    T_EXPECT(f_my_server() == F_ESTATE);
}

static void *other_thread(void *arg)
{
    other_thread_calls();
    return NULL;
}

static int refusing_creator(int s, int n, void *arg)
{
    struct f_stats st;
    T_EXPECT(f_my_server() == s);
    T_EXPECT(f_new_barrier(NULL, NULL) == F_ESTATE);
    T_EXPECT(f_fork(t_count_fn, 0, 0, &forked_ran) == F_ESTATE);
    T_EXPECT(f_fork_seq(t_count_fn, t_count_fn, 0, 0, &forked_ran) == F_ESTATE);
    T_EXPECT(f_vfork(rec_v, "") == F_ESTATE);
    T_EXPECT(f_join() == F_ESTATE);
    /* A typed fork outside a filament is a call, its value kept for the
     * sync (f_fork(3)): no child of the creator's. */
    f_frame fr = f_frame_here();
    atomic_long typed_ran = 0;
    T_EXPECT(f_fork_long(&fr, forked_long, 0, 0, &typed_ran) == F_OK);
    T_EXPECT(t_ldl(&typed_ran) == 1);
    T_EXPECT(f_sync_long(&fr, forked_long) == 1);
    T_EXPECT(f_parallel() == F_ESTATE);
    T_EXPECT(f_create_per_server(empty_creator, NULL) == F_ESTATE);
    T_EXPECT(f_initialize(1) == F_ESTATE);
    f_finalize();    /* nothing */
    T_EXPECT(f_set_range_version(t_count_fn, NULL) == F_ESTATE);
    T_EXPECT(f_new_reduction(F_SUM) == NULL);
    T_EXPECT(f_new_continuation(8) == NULL);
    T_EXPECT(f_get_stats(F_ANY, &st) == F_ESTATE);
    T_EXPECT(f_reset_stats() == F_ESTATE);
    if (s == 0) {    /* a thread that is not a server: the library is busy */
        pthread_t t;
        T_EXPECT(pthread_create(&t, NULL, other_thread, NULL) == 0);
        pthread_join(t, NULL);
    }
    return f_rtc_thread(s, t_count_fn, 0, 0, arg);
}

START_TEST(test_create_errors_refused_inside)
{
    int n = t_start_loop(_i);
    atomic_long ran;
    atomic_init(&ran, 0);
    atomic_init(&forked_ran, 0);
    ck_assert_int_eq(f_create_per_server(refusing_creator, &ran), F_OK);
    ck_assert_int_eq(f_parallel(), F_OK);
    T_ASSERT_NO_FAILURES();
    ck_assert_int_eq(t_ldl(&ran), n);
    ck_assert_int_eq(t_ldl(&forked_ran), 0);
    ck_assert_int_eq(f_num_servers(), n);
    t_assert_library_works();
}
END_TEST

/*
 * Each misuse in turn, committed by the last server after every server has
 * created every kind (the main thread's rows around them): the call returns
 * the misuse's code, and nothing that any creator made remains - not even
 * the points by which they extended the main thread's rows - while the
 * main thread's own run as they were.  Then the library works.
 */
static int misuse_code(enum misuse m)
{
    switch (m) {
    case RTC_OTHER: case ITER_OTHER: case ROW_OTHER: case VRTC_OTHER: case VITER_OTHER:
        return F_ESTATE;
    case RETURN_CODE: return -77;
    default: return F_EINVAL;
    }
}

START_TEST(test_create_errors_misuse)
{
    int n = t_start_loop(_i);
    for (int m = NONE + 1; m < NMISUSES; ++m) {
        int other = m == RTC_OTHER || m == ITER_OTHER || m == ROW_OTHER || m == VRTC_OTHER ||
                    m == VITER_OTHER;
        if (other && n == 1)
            continue;    /* no other server */
        int iterative = m == ITER_OTHER || m == ITER_INDEX || m == ITER_NULL ||
                        m == ROW_OTHER || m == ROW_BACKWARD || m == VITER_OTHER ||
                        m == VITER_FORMAT;
        for (int rtc = 0; rtc < 2; ++rtc) {  /* iterative and RTC kinds, then RTC alone */
            struct job *jb = job_new(rtc ? RTC_KINDS : ITER_KINDS | (1 << RTC_ROWS), 3L * n, 40);
            /* With no phase open, an iterative misuse is that first. */
            int code = rtc && iterative ? F_ESTATE : misuse_code((enum misuse)m);
            jb->around = 1;
            jb->misuse = (enum misuse)m;
            jb->misuser = n - 1;
            run_job(jb, code);
            ck_assert_int_eq(jb->got, code);
            job_free(jb);
        }
    }
    t_assert_library_works();
}
END_TEST

/* A row that the main thread began and a creator continues until its
 * chunk fills: the library packs the row from the call's start on, so that
 * a failed call leaves the main thread's points as they were. */
START_TEST(test_create_errors_row_across)
{
    int n = t_start_loop(_i);
    for (int fail = 0; fail < 2; ++fail) {
        struct job *jb = job_new(1 << RTC_ROWS, n, 200);
        jb->around = 1;
        jb->misuse = fail ? RETURN_CODE : NONE;
        jb->misuser = fail ? n - 1 : -1;
        run_job(jb, fail ? -77 : F_OK);
        job_free(jb);
    }
}
END_TEST

/* Iterative creation with no phase open: F_ESTATE, and the call fails. */
static int iter_no_phase(int s, int n, void *arg)
{
    T_EXPECT(f_rtc_thread(s, t_count_fn, 0, 0, arg) == F_OK);
    T_EXPECT(f_iterative_thread(s, t_count_fn, 0, 0, arg) == F_ESTATE);
    T_EXPECT(f_iterative_row(s, t_count_fn, 0, 0, 4, arg) == F_ESTATE);
    T_EXPECT(f_iterative_row(s, t_count_fn, 0, 4, 0, arg) == F_ESTATE);
    T_EXPECT(f_iterative_vthread(s, rec_v, "") == F_ESTATE);
    return 0;
}

/* Every server returns its own code: the lowest server's is returned. */
static int each_fails(int s, int n, void *arg)
{
    T_EXPECT(f_rtc_thread(s, t_count_fn, 0, 0, arg) == F_OK);
    return -100 - s;
}

START_TEST(test_create_errors_which_code)
{
    t_start_loop(_i);
    atomic_long ran;
    atomic_init(&ran, 0);
    ck_assert_int_eq(f_create_per_server(iter_no_phase, &ran), F_ESTATE);
    ck_assert_int_eq(f_create_per_server(each_fails, &ran), -100);
    ck_assert_int_eq(f_parallel(), F_OK);
    T_ASSERT_NO_FAILURES();
    ck_assert_int_eq(t_ldl(&ran), 0);
    t_assert_library_works();
}
END_TEST

/*
 * Failure injection: the k-th allocation fails, for k = 1, 2, ... until the
 * call succeeds, with every kind created around the main thread's rows.
 * Each failing call returns F_ENOMEM and leaves nothing behind; the
 * library then works.  Which allocation is k-th depends on how the
 * servers interleave, so each k starts a fresh library, and the count of
 * calls tried is bounded.
 */
START_TEST(test_create_errors_enomem)
{
    int n = t_servers(_i);
    /* Queue chunks and run arrays growing on every server; then argument
     * blocks, one per filament (fewer filaments). */
    const struct { int kinds; long cols; } shapes[] = {
        { ALL_KINDS & ~((1 << VRTC) | (1 << VITER)), 600 },
        { (1 << VRTC) | (1 << VITER) | (1 << RTC_ROWS), 5 },
    };
    for (int shape = 0; shape < 2; ++shape) {
        int failed = 0;
        for (long k = 1;; ++k) {
            ck_assert_msg(k < 2000, "still failing at allocation %ld", k);
            t_start(n);
            struct job *jb = job_new(shapes[shape].kinds, 2L * n, shapes[shape].cols);
            jb->around = 1;
            open_phase(2);
            main_before(jb);
            fi_alloc_fail_reset(k);
            int rc = f_create_per_server(creator, jb);
            fi_alloc_fail_reset(0);
            ck_assert_msg(rc == F_OK || rc == F_ENOMEM, "allocation %ld: %d", k, rc);
            ck_assert_int_eq(f_parallel(), F_OK);
            check_job(jb, rc == F_OK, 2);
            job_free(jb);
            t_assert_library_works();
            f_finalize();
            if (rc == F_OK)
                break;
            ++failed;
        }
        ck_assert_int_gt(failed, 0);    /* the creators did allocate */
    }
}
END_TEST

/* ------------------------------------------------------------- limits */

/* An empty creator: F_OK, and nothing else changes. */
START_TEST(test_create_empty)
{
    t_start_loop(_i);
    struct job *jb = job_new(1 << RTC_ROWS, 0, 10);
    jb->around = 1;
    run_job(jb, F_OK);
    job_free(jb);
    t_assert_library_works();
}
END_TEST

/* One server creates for itself alone; the others return at once. */
START_TEST(test_create_one_server)
{
    int n = t_start_loop(_i);
    for (int only = 0; only < n; only += n > 1 ? n - 1 : 1) {
        struct job *jb = job_new((1 << RTC_ROWS) | (1 << ITER) | (1 << RTC_ANY), 3L * n,
                                 t_scaled(5000));
        jb->only = only;
        run_job(jb, F_OK);
        job_free(jb);
    }
}
END_TEST

/* Many filaments per server, unpacked: chunks grow on every server. */
START_TEST(test_create_many)
{
    int n = t_start_loop(_i);
    struct job *jb = job_new((1 << RTC_SPREAD) | (1 << RTC_ANY), 2L * n, t_scaled(30000));
    run_job(jb, F_OK);
    job_free(jb);
}
END_TEST

/* ------------------------------------------------------------- stress */

/* Cycles of main-thread and per-server creation mixed, some calls failing,
 * checked exactly each time (the creators' writes against each other and
 * against the main thread's, under the sanitizers). */
START_TEST(test_create_stress_cycles)
{
    int n = t_start_loop(_i);
    uint64_t seed = 12345 + (uint64_t)_i;
    long cycles = t_scaled(60);
    for (long c = 0; c < cycles; ++c) {
        seed = seed * 6364136223846793005u + 1442695040888963407u;
        int kinds = (int)(seed >> 33) & ALL_KINDS;
        long cols = 1 + (long)((seed >> 20) % 400);
        struct job *jb = job_new(kinds, 1 + (long)((seed >> 45) % (4 * n)), cols);
        jb->around = (seed >> 10) & 1;
        if ((seed >> 12) % 4 == 0 && n > 1) {
            jb->misuse = (seed >> 14) & 1 ? RTC_OTHER : RETURN_CODE;
            jb->misuser = (int)((seed >> 16) % (uint64_t)n);
        }
        run_job(jb, jb->misuse == NONE ? F_OK : misuse_code(jb->misuse));
        job_free(jb);
    }
}
END_TEST

Suite *make_suite(void)
{
    Suite *s = suite_create("create");
    TCase *core = t_tcase(s, "core");
    tcase_add_loop_test(core, test_create_every_kind, 0, T_NCOUNTS);
    tcase_add_loop_test(core, test_create_rtc_rows, 0, T_NCOUNTS);
    tcase_add_loop_test(core, test_create_iterative, 0, T_NCOUNTS);
    tcase_add_loop_test(core, test_create_order, 0, T_NCOUNTS);
    tcase_add_loop_test(core, test_create_repeated, 0, T_NCOUNTS);
    tcase_add_loop_test(core, test_create_bitwise_equal, 0, T_NCOUNTS);
    TCase *errors = t_tcase(s, "errors");
    tcase_add_loop_test(errors, test_create_errors_call, 0, T_NCOUNTS);
    tcase_add_loop_test(errors, test_create_errors_refused_inside, 0, T_NCOUNTS);
    tcase_add_loop_test(errors, test_create_errors_misuse, 0, T_NCOUNTS);
    tcase_add_loop_test(errors, test_create_errors_row_across, 0, T_NCOUNTS);
    tcase_add_loop_test(errors, test_create_errors_which_code, 0, T_NCOUNTS);
    tcase_add_loop_test(errors, test_create_errors_enomem, 0, T_NCOUNTS);
    TCase *limits = t_tcase(s, "limits");
    tcase_add_loop_test(limits, test_create_empty, 0, T_NCOUNTS);
    tcase_add_loop_test(limits, test_create_one_server, 0, T_NCOUNTS);
    tcase_add_loop_test(limits, test_create_many, 0, T_NCOUNTS);
    TCase *stress = t_tcase(s, "stress");
    tcase_add_loop_test(stress, test_create_stress_cycles, 0, T_NCOUNTS);
    return s;
}
