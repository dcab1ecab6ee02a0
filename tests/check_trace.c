/*
 * check_trace.c - suite "trace": the schedule trace (f_trace_start(3),
 * FILAMENTS_TRACE; doc/design.md, "The schedule trace").
 *
 * Programs whose schedule is known give exactly the spans they must: RTC
 * filaments on server 1 alone drain there once and nowhere else; a phase
 * of K passes gives every server K passes in alternating directions and
 * K + 1 barriers, and the deciders K barrier codes; a fork/join run that
 * must steal at 2 servers shows as many stolen filaments as f_get_stats
 * counts.  Every file is checked as a whole: it parses as JSON (with
 * python3 where there is one, and here, line by line, as far as the
 * checks need), each track's spans start in order and nest (every span
 * closes inside the one around it), and the dropped spans it reports add
 * up.  A tiny buffer drops and counts; a path that cannot be written fails
 * the call that opens it (F_EIO), and the library goes on without a trace.
 */
#define _POSIX_C_SOURCE 200809L
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests.h"

/* ------------------------------------------------------ reading a file */

/* One line of the file: an event, as far as the checks read it. */
struct t_event {
    char name[32];
    char ph;
    int tid;
    double ts, dur;
    const char *args; /* the line from its "args", or "" */
};

struct t_trace {
    char *text;
    struct t_event *ev;
    size_t n;
    long servers, dropped_events, pid;
    long dropped_instants; /* the sum of the "dropped spans" events' counts */
};

static const char *temp_dir(void)
{
    const char *dir = getenv("TMPDIR");
    return dir != NULL && dir[0] != '\0' ? dir : "/tmp";
}

/* A temporary file's name for a trace (the file exists and is empty). */
static void temp_path(char *path, size_t size)
{
    snprintf(path, size, "%s/check_trace.XXXXXX", temp_dir());
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "cannot read %s", path);
    size_t cap = 1 << 16, n = 0;
    char *s = malloc(cap);
    ck_assert_ptr_nonnull(s);
    size_t got;
    while ((got = fread(s + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (cap - n - 1 == 0) {
            s = realloc(s, cap *= 2);
            ck_assert_ptr_nonnull(s);
        }
    }
    fclose(f);
    s[n] = '\0';
    return s;
}

/* The number after `"key":` in s, or dflt where there is none. */
static long num_after(const char *s, const char *key, long dflt)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *p = strstr(s, pat);
    return p != NULL ? strtol(p + strlen(pat), NULL, 10) : dflt;
}

static double real_after(const char *s, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *p = strstr(s, pat);
    ck_assert_msg(p != NULL, "no %s in: %.200s", key, s);
    return strtod(p + strlen(pat), NULL);
}

/* An argument of e: a number, or -999 where it has none. */
static long arg(const struct t_event *e, const char *key)
{
    return num_after(e->args, key, -999);
}

/* A word argument of e, as `"key":"word"`. */
static int arg_is(const struct t_event *e, const char *key, const char *word)
{
    char pat[96];
    snprintf(pat, sizeof pat, "\"%s\":\"%s\"", key, word);
    return strstr(e->args, pat) != NULL;
}

/* python3 parses it as JSON, where python3 is installed. */
static void assert_json(const char *path)
{
    if (system("command -v python3 >/dev/null 2>&1") != 0)
        return;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "python3 -c 'import json,sys; json.load(open(sys.argv[1]))' '%s'",
             path);
    ck_assert_msg(system(cmd) == 0, "%s does not parse as JSON", path);
}

static int starts_before(const struct t_event *a, const struct t_event *b)
{
    return a->ts < b->ts || (a->ts == b->ts && a->dur >= b->dur);
}

/* Each track's complete spans in order of their starts, each inside the
 * last one still open on its track: every span closes, none overlaps
 * another's end.  Times are printed to the nanosecond, hence the slack. */
static void assert_tracks_nest(const struct t_trace *t)
{
    const double slack = 0.002;
    for (long tid = 0; tid <= t->servers; ++tid) {
        double open_end[64];
        int depth = 0;
        const struct t_event *last = NULL;
        for (size_t k = 0; k < t->n; ++k) {
            const struct t_event *e = &t->ev[k];
            if (e->ph != 'X' || e->tid != tid)
                continue;
            ck_assert_msg(e->ts >= 0 && e->dur >= 0, "track %ld: %s at %f for %f", tid, e->name,
                          e->ts, e->dur);
            ck_assert_msg(last == NULL || starts_before(last, e),
                          "track %ld: %s at %f after %s at %f", tid, e->name, e->ts, last->name,
                          last->ts);
            last = e;
            while (depth > 0 && open_end[depth - 1] <= e->ts + slack)
                --depth;
            ck_assert_msg(depth == 0 || e->ts + e->dur <= open_end[depth - 1] + slack,
                          "track %ld: %s at %f ends after the span around it", tid, e->name, e->ts);
            ck_assert_int_lt(depth, 64);
            open_end[depth++] = e->ts + e->dur;
        }
    }
}

/* Read and check the file at path: JSON, a track per server and one for
 * main, named, nested, in order; the dropped spans add up.  The caller
 * frees it with free_trace. */
static struct t_trace read_trace(const char *path, int nservers)
{
    assert_json(path);
    struct t_trace t = { .text = slurp(path) };
    ck_assert_msg(strncmp(t.text, "{\"traceEvents\":[", 16) == 0, "%s: no traceEvents", path);
    const char *other = strstr(t.text, "\"otherData\":");
    ck_assert_msg(other != NULL, "%s: no otherData", path);
    t.servers = num_after(other, "servers", -1);
    t.dropped_events = num_after(other, "dropped_events", -1);
    t.pid = num_after(other, "pid", -1);
    ck_assert_int_eq(t.servers, nservers);
    ck_assert_int_ge(t.dropped_events, 0);
    ck_assert_ptr_nonnull(strstr(other, "\"version\":\""));
    ck_assert_ptr_nonnull(strstr(other, "\"machine\":\""));

    size_t cap = 1024;
    t.ev = malloc(cap * sizeof *t.ev);
    ck_assert_ptr_nonnull(t.ev);
    int named[64] = { 0 };
    for (char *line = strtok(t.text, "\n"); line != NULL; line = strtok(NULL, "\n")) {
        if (strncmp(line, "{\"name\":\"", 9) != 0)
            continue;
        if (t.n == cap) {
            t.ev = realloc(t.ev, (cap *= 2) * sizeof *t.ev);
            ck_assert_ptr_nonnull(t.ev);
        }
        struct t_event *e = &t.ev[t.n++];
        const char *name = line + 9;
        size_t len = strcspn(name, "\"");
        ck_assert_int_lt(len, sizeof e->name);
        memcpy(e->name, name, len);
        e->name[len] = '\0';
        const char *ph = strstr(line, "\"ph\":\"");
        ck_assert_ptr_nonnull(ph);
        e->ph = ph[6];
        e->tid = (int)num_after(line, "tid", -1);
        ck_assert_int_eq(num_after(line, "pid", -1), t.pid);
        ck_assert_msg(e->tid >= 0 && e->tid <= nservers, "tid %d: %s", e->tid, line);
        const char *args = strstr(line, "\"args\":");
        e->args = args != NULL ? args : "";
        if (e->ph == 'X') {
            e->ts = real_after(line, "ts");
            e->dur = real_after(line, "dur");
        } else if (e->ph == 'i') {
            e->ts = real_after(line, "ts");
            if (strcmp(e->name, "dropped spans") == 0)
                t.dropped_instants += arg(e, "dropped");
        } else if (e->ph == 'M' && strcmp(e->name, "thread_name") == 0) {
            char want[32];
            if (e->tid == 0)
                snprintf(want, sizeof want, "\"name\":\"main\"");
            else
                snprintf(want, sizeof want, "\"name\":\"server %d\"", e->tid - 1);
            ck_assert_msg(strstr(e->args, want) != NULL, "track %d named: %s", e->tid, line);
            named[e->tid]++;
        }
    }
    for (int tid = 0; tid <= nservers; ++tid)
        ck_assert_msg(named[tid] == 1, "track %d named %d times", tid, named[tid]);
    ck_assert_int_eq(t.dropped_instants, t.dropped_events);
    assert_tracks_nest(&t);
    return t;
}

static void free_trace(struct t_trace *t)
{
    free(t->ev);
    free(t->text);
}

/* Spans named `name` on track tid (-1: any track). */
static long count(const struct t_trace *t, const char *name, int tid)
{
    long n = 0;
    for (size_t k = 0; k < t->n; ++k)
        n += t->ev[k].ph == 'X' && strcmp(t->ev[k].name, name) == 0 &&
             (tid < 0 || t->ev[k].tid == tid);
    return n;
}

/* The k-th span named `name` on track tid, in the file's order. */
static const struct t_event *nth(const struct t_trace *t, const char *name, int tid, long k)
{
    for (size_t m = 0; m < t->n; ++m)
        if (t->ev[m].ph == 'X' && t->ev[m].tid == tid && strcmp(t->ev[m].name, name) == 0 &&
            k-- == 0)
            return &t->ev[m];
    ck_abort_msg("no %s #%ld on track %d", name, k, tid);
    return NULL;
}

/* n servers, and a trace of program(n) in a fresh file, read back. */
static struct t_trace trace_of(int n, void (*program)(int nservers))
{
    char path[256];
    temp_path(path, sizeof path);
    t_start(n);
    ck_assert_int_eq(f_trace_start(path), F_OK);
    program(n);
    ck_assert_int_eq(f_trace_stop(), F_OK);
    struct t_trace t = read_trace(path, n);
    unlink(path);
    return t;
}

/* ------------------------------------------------------------ programs */

/* RTC filaments on server 1 only. */
enum { RTC_N = 100 };

static void rtc_on_server_1(void)
{
    atomic_long ran;
    atomic_init(&ran, 0);
    for (long k = 0; k < RTC_N; ++k)
        ck_assert_int_eq(f_rtc_thread(1, t_count_fn, k, 0, &ran), F_OK);
    ck_assert_int_eq(f_parallel(), F_OK);
    ck_assert_int_eq(t_ldl(&ran), RTC_N);
}

/* Exactly what rtc_on_server_1 must leave in a trace of it alone. */
static void assert_rtc_schedule(const struct t_trace *t, int nservers)
{
    ck_assert_int_eq(count(t, "f_parallel", 0), 1);
    ck_assert_int_eq(arg(nth(t, "f_parallel", 0, 0), "call"), 1);
    ck_assert_int_eq(count(t, "steal", -1), 0);
    ck_assert_int_eq(count(t, "pass", -1), 0);
    ck_assert_int_eq(count(t, "barrier code", -1), 0);
    for (int s = 0; s < nservers; ++s) {
        int tid = s + 1;
        ck_assert_int_eq(count(t, "run", tid), 1);
        ck_assert_int_eq(arg(nth(t, "run", tid, 0), "call"), 1);
        ck_assert_int_eq(count(t, "barrier", tid), 1);
        const struct t_event *b = nth(t, "barrier", tid, 0);
        ck_assert_int_eq(arg(b, "episode"), 0);
        ck_assert_int_eq(arg(b, "phase"), -1);
        ck_assert_int_eq(arg(b, "rounds"), 1);
        ck_assert(arg_is(b, "verdict", "done"));
    }
    ck_assert_int_eq(count(t, "drain", -1), 1);
    ck_assert_int_eq(count(t, "drain", 2), 1);
    const struct t_event *d = nth(t, "drain", 2, 0);
    ck_assert_int_eq(arg(d, "episode"), 0);
    ck_assert_int_eq(arg(d, "rtc_filaments"), RTC_N);
    ck_assert_int_eq(arg(d, "forkjoin"), 0);
}

/* A phase of PASSES passes, PER_SERVER filaments a server. */
enum { PASSES = 7, PER_SERVER = 5 };

struct phase_job {
    long seq_calls, passes;
    atomic_long ran;
};

static int phase_seq(void *arg)
{
    struct phase_job *p = arg;
    return ++p->seq_calls == p->passes ? F_DONE : F_NOTDONE;
}

static void run_phase(int nservers, long passes)
{
    struct phase_job p = { .seq_calls = 0, .passes = passes };
    atomic_init(&p.ran, 0);
    ck_assert_int_ge(f_new_barrier(phase_seq, &p), 0);
    for (int s = 0; s < nservers; ++s)
        for (long j = 0; j < PER_SERVER; ++j)
            ck_assert_int_eq(f_iterative_thread(s, t_count_fn, s, j, &p.ran), F_OK);
    ck_assert_int_eq(f_parallel(), F_OK);
    ck_assert_int_eq(p.seq_calls, passes);
    ck_assert_int_eq(t_ldl(&p.ran), passes * nservers * PER_SERVER);
}

/* ------------------------------------------------------------- tests */

static void rtc_program(int nservers)
{
    rtc_on_server_1();
}

/* RTC filaments on server 1 alone: one drain, there; one barrier each. */
START_TEST(test_trace_rtc_on_one_server)
{
    int n = t_servers_cap(2 + _i % 3);
    struct t_trace t = trace_of(n, rtc_program);
    assert_rtc_schedule(&t, n);
    ck_assert_int_eq(t.dropped_events, 0);
    free_trace(&t);
}
END_TEST

static void passes_program(int nservers)
{
    run_phase(nservers, PASSES);
}

/* A phase of PASSES passes: each server's passes, in alternate
 * directions, its barriers, and the deciders' barrier codes. */
START_TEST(test_trace_passes)
{
    int n = t_servers(_i);
    struct t_trace t = trace_of(n, passes_program);
    ck_assert_int_eq(count(&t, "drain", -1), 0);
    ck_assert_int_eq(count(&t, "barrier code", -1), PASSES);
    ck_assert_int_eq(count(&t, "barrier code", 0), 0);
    long done = 0;
    for (int s = 0; s < n; ++s) {
        int tid = s + 1;
        ck_assert_int_eq(count(&t, "pass", tid), PASSES);
        ck_assert_int_eq(count(&t, "barrier", tid), PASSES + 1);
        for (long k = 0; k < PASSES; ++k) {
            const struct t_event *p = nth(&t, "pass", tid, k);
            ck_assert_int_eq(arg(p, "phase"), 0);
            ck_assert_int_eq(arg(p, "pass"), k + 1);
            ck_assert_int_eq(arg(p, "filaments"), PER_SERVER);
            ck_assert(arg_is(p, "direction", k % 2 == 0 ? "forward" : "backward"));
        }
        for (long k = 0; k <= PASSES; ++k) {
            const struct t_event *b = nth(&t, "barrier", tid, k);
            ck_assert_int_eq(arg(b, "episode"), k);
            ck_assert_int_eq(arg(b, "phase"), k == 0 ? -1 : 0);
            ck_assert_int_eq(arg(b, "rounds"), 1);
            ck_assert(arg_is(b, "verdict", k == PASSES ? "done" : "next"));
        }
        for (long k = 0; k < count(&t, "barrier code", tid); ++k) {
            const struct t_event *c = nth(&t, "barrier code", tid, k);
            ck_assert_int_eq(arg(c, "phase"), 0);
            done += arg_is(c, "verdict", "done");
            /* Inside one of its server's barriers: the decider's. */
            int inside = 0;
            for (long m = 0; m <= PASSES; ++m) {
                const struct t_event *b = nth(&t, "barrier", tid, m);
                inside |= b->ts <= c->ts && c->ts + c->dur <= b->ts + b->dur + 0.002;
            }
            ck_assert_msg(inside, "server %d: barrier code outside its barriers", s);
        }
    }
    ck_assert_int_eq(done, 1);
    free_trace(&t);
}
END_TEST

/* A root that forks until another server has run one of its children.
 * It yields after each fork: under valgrind, which runs one thread at a
 * time, the thief otherwise got the processor only when the root's time
 * slice ended, by then mostly in a join that had taken back what its forks
 * had published: one run here was still forking after 4 minutes, and the
 * suite failed under valgrind in CI. */
struct steal_job {
    atomic_int root_server, stolen;
};

static void steal_child(long i, long j, void *arg)
{
    struct steal_job *s = arg;
    if (f_my_server() != atomic_load(&s->root_server))
        atomic_store(&s->stolen, 1);
    t_work(2000);
}

static void steal_root(long i, long j, void *arg)
{
    struct steal_job *s = arg;
    atomic_store(&s->root_server, f_my_server());
    for (long k = 0; !atomic_load(&s->stolen) && k < 100000000; ++k) {
        T_EXPECT(f_fork(steal_child, k, 0, s) == F_OK);
        sched_yield();
        t_work(200);
        if (k % 64 == 63)
            T_EXPECT(f_join() == F_OK);
    }
    T_EXPECT(f_join() == F_OK);
}

/* The steals that f_get_stats counted in steal_program's run. */
static unsigned long counted_steals;

static void steal_program(int nservers)
{
    f_set_prune(0);
    struct steal_job job;
    atomic_init(&job.root_server, -1);
    atomic_init(&job.stolen, 0);
    ck_assert_int_eq(f_reset_stats(), F_OK);
    ck_assert_int_eq(f_fork(steal_root, 0, 0, &job), F_OK);
    ck_assert_int_eq(f_parallel(), F_OK);
    T_ASSERT_NO_FAILURES();
    ck_assert_int_eq(atomic_load(&job.stolen), 1);
    struct f_stats stats;
    ck_assert_int_eq(f_get_stats(F_ANY, &stats), F_OK);
    counted_steals = stats.steals;
}

/* A fork/join run that must steal at 2 servers: the trace's stolen
 * filaments are f_get_stats' steals, each from the other server. */
START_TEST(test_trace_steals)
{
    struct t_trace t = trace_of(2, steal_program);
    long stolen = 0;
    for (size_t k = 0; k < t.n; ++k) {
        const struct t_event *e = &t.ev[k];
        if (e->ph != 'X' || strcmp(e->name, "steal") != 0)
            continue;
        ck_assert_int_eq(arg(e, "victim"), 2 - e->tid); /* the other server */
        ck_assert(arg_is(e, "kind", "fork/join"));
        stolen += arg(e, "filaments");
    }
    ck_assert_int_ge(stolen, 1);
    ck_assert_int_eq(stolen, (long)counted_steals);
    for (size_t k = 0; k < t.n; ++k)
        if (t.ev[k].ph == 'X' && strcmp(t.ev[k].name, "join wait") == 0)
            ck_assert_int_eq(arg(&t.ev[k], "thief"), 2 - t.ev[k].tid);
    free_trace(&t);
}
END_TEST

/* Parallel loops from the main thread. */
enum { LOOP_CALLS = 10, LOOP_POINTS = 1000 };

static void loop_body(long lo, long hi, void *arg)
{
    (void)arg;
    for (long i = lo; i < hi; ++i)
        t_work(10);
}

static void loop_program(int nservers)
{
    (void)nservers;
    for (int c = 0; c < LOOP_CALLS; ++c)
        ck_assert_int_eq(f_parallel_for(0, LOOP_POINTS, loop_body, NULL), F_OK);
}

/* Each call a "loop" span on the main track, numbered, with its
 * iterations; each part of each of its strips once, a "strip" span inside
 * it, on its server's track or on the main thread's (strip 0, and the
 * parts of a member's strip that the main thread took). */
START_TEST(test_trace_loops)
{
    int n = _i + 1;
    struct t_trace t = trace_of(n, loop_program);
    ck_assert_int_eq(count(&t, "loop", 0), LOOP_CALLS);
    for (long c = 0; c < LOOP_CALLS; ++c) {
        const struct t_event *call = nth(&t, "loop", 0, c);
        long no = arg(call, "call");
        ck_assert_int_eq(no, c + 1);
        ck_assert_int_eq(arg(call, "iterations"), LOOP_POINTS);
        enum { MAX_PARTS = 256 };
        static char seen[3][MAX_PARTS];
        long spans[3] = { 0, 0, 0 }, parts[3] = { 0, 0, 0 };
        memset(seen, 0, sizeof seen);
        for (size_t k = 0; k < t.n; ++k) {
            const struct t_event *e = &t.ev[k];
            if (e->ph != 'X' || strcmp(e->name, "strip") != 0 || arg(e, "call") != no)
                continue;
            long s = arg(e, "strip"), part = arg(e, "part");
            ck_assert(s >= 0 && s < n && part >= 0 && part < MAX_PARTS);
            ck_assert(e->tid == 0 || (s > 0 && e->tid == s + 1));
            ck_assert(e->ts >= call->ts && e->ts + e->dur <= call->ts + call->dur + 0.002);
            ck_assert_int_eq(seen[s][part]++, 0);
            spans[s]++;
            if (part + 1 > parts[s])
                parts[s] = part + 1;
        }
        for (int s = 0; s < n; ++s) {
            ck_assert_int_ge(spans[s], 1);
            ck_assert_int_eq(spans[s], parts[s]); /* parts 0 .. parts - 1, each once */
        }
    }
    free_trace(&t);
}
END_TEST

/* FILAMENTS_TRACE: from f_initialize to f_finalize, with the program's
 * results as without it; a per-server creation and two runs, numbered. */
static int create_on_1(int server, int nservers, void *arg)
{
    return server == 1 ? f_rtc_thread(1, t_count_fn, 0, 0, arg) : F_OK;
}

START_TEST(test_trace_environment)
{
    char path[256];
    temp_path(path, sizeof path);
    ck_assert_int_eq(setenv("FILAMENTS_TRACE", path, 1), 0);
    t_start(2);
    ck_assert_int_eq(f_trace_start(path), F_ESTATE); /* already recording */
    atomic_long created;
    atomic_init(&created, 0);
    ck_assert_int_eq(f_create_per_server(create_on_1, &created), F_OK);
    rtc_on_server_1();
    t_assert_library_works();
    f_finalize();
    ck_assert_int_eq(t_ldl(&created), 1);
    struct t_trace t = read_trace(path, 2);
    ck_assert_int_eq(count(&t, "f_create_per_server", 0), 1);
    ck_assert_int_eq(arg(nth(&t, "f_create_per_server", 0, 0), "call"), 1);
    ck_assert_int_eq(arg(nth(&t, "f_create_per_server", 0, 0), "result"), 0);
    ck_assert_int_eq(count(&t, "f_parallel", 0), 2);
    for (int s = 0; s < 2; ++s) {
        ck_assert_int_eq(count(&t, "creator", s + 1), 1);
        ck_assert_int_eq(arg(nth(&t, "creator", s + 1, 0), "call"), 1);
        ck_assert_int_eq(count(&t, "run", s + 1), 2);
        ck_assert_int_eq(arg(nth(&t, "run", s + 1, 0), "call"), 2);
        ck_assert_int_eq(arg(nth(&t, "run", s + 1, 1), "call"), 3);
    }
    free_trace(&t);
    unlink(path);
}
END_TEST

static void twenty_passes_program(int nservers)
{
    run_phase(nservers, 20);
}

/* An MPI rank's trace: %r in FILAMENTS_TRACE is the launcher's rank, which
 * is also the file's process id; without a rank, or with a value that is
 * not one, the process's id. */
START_TEST(test_trace_rank)
{
    char base[256], pattern[300], want[300];
    snprintf(base, sizeof base, "%s/check_trace.XXXXXX", temp_dir());
    ck_assert_ptr_nonnull(mkdtemp(base));
    snprintf(pattern, sizeof pattern, "%s/t.%%r.%%r.json", base);
    ck_assert_int_eq(setenv("FILAMENTS_TRACE", pattern, 1), 0);
    /* Each launcher's variable; none; and a value that is not a rank. */
    const struct {
        const char *name, *value;
        long id;  /* -1: the process id */
    } cases[] = { { "OMPI_COMM_WORLD_RANK", "3", 3 }, { "PMIX_RANK", "4", 4 },
                  { "PMI_RANK", "5", 5 }, { NULL, NULL, -1 }, { "PMI_RANK", "-1", -1 } };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; ++k) {
        long id = cases[k].id >= 0 ? cases[k].id : (long)getpid();
        if (cases[k].name != NULL)
            ck_assert_int_eq(setenv(cases[k].name, cases[k].value, 1), 0);
        t_start(2);
        rtc_on_server_1();
        f_finalize();
        snprintf(want, sizeof want, "%s/t.%ld.%ld.json", base, id, id);
        struct t_trace t = read_trace(want, 2);
        ck_assert_int_eq(t.pid, id);
        free_trace(&t);
        unlink(want);
        if (cases[k].name != NULL)
            ck_assert_int_eq(unsetenv(cases[k].name), 0);
    }
    ck_assert_int_eq(unsetenv("FILAMENTS_TRACE"), 0);
    rmdir(base);
}
END_TEST

/* FILAMENTS_TRACE_EVENTS=3: every server's track keeps its first 3 events
 * (spans, and instants such as a trade of cores where the machine is
 * busy), drops the rest, and the file counts them, per track and in all. */
START_TEST(test_trace_tiny_buffer)
{
    int n = t_servers(_i);
    ck_assert_int_eq(setenv("FILAMENTS_TRACE_EVENTS", "3", 1), 0);
    struct t_trace t = trace_of(n, twenty_passes_program);
    ck_assert_int_gt(t.dropped_events, 0);
    for (int s = 0; s < n; ++s) {
        long kept = 0, dropped = 0;
        for (size_t k = 0; k < t.n; ++k) {
            if (t.ev[k].tid != s + 1)
                continue;
            if (strcmp(t.ev[k].name, "dropped spans") == 0)
                dropped += arg(&t.ev[k], "dropped");
            else
                kept += t.ev[k].ph == 'X' || t.ev[k].ph == 'i';
        }
        ck_assert_int_eq(kept, 3);
        ck_assert_int_ge(kept + dropped, 2 * 20 + 2); /* passes, barriers, the run */
    }
    free_trace(&t);
}
END_TEST

/* One trace after another, each to its own file, each complete. */
START_TEST(test_trace_twice)
{
    char first[256], second[256];
    temp_path(first, sizeof first);
    temp_path(second, sizeof second);
    t_start(2);
    ck_assert_int_eq(f_trace_start(first), F_OK);
    rtc_on_server_1();
    ck_assert_int_eq(f_trace_stop(), F_OK);
    rtc_on_server_1(); /* not recorded */
    ck_assert_int_eq(f_trace_start(second), F_OK);
    rtc_on_server_1();
    ck_assert_int_eq(f_trace_stop(), F_OK);
    const char *paths[] = { first, second };
    for (int k = 0; k < 2; ++k) {
        struct t_trace t = read_trace(paths[k], 2);
        assert_rtc_schedule(&t, 2);
        free_trace(&t);
        unlink(paths[k]);
    }
}
END_TEST

/* ------------------------------------------------------------- errors */

static atomic_int inside_rc;

static void call_from_filament(long i, long j, void *arg)
{
    atomic_store(&inside_rc, i == 0 ? f_trace_start(arg) : f_trace_stop());
}

/* Paths that cannot be written: F_EIO from the call that opens them,
 * nothing recording, the library working. */
START_TEST(test_trace_errors_unwritable)
{
    const char *bad[] = { "/nonexistent-check-trace-dir/trace.json", "/" };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; ++k) {
        t_start(2);
        ck_assert_int_eq(f_trace_start(bad[k]), F_EIO);
        ck_assert_int_eq(f_trace_stop(), F_ESTATE);
        t_assert_library_works();
        f_finalize();

        ck_assert_int_eq(setenv("FILAMENTS_TRACE", bad[k], 1), 0);
        ck_assert_int_eq(f_initialize(2), F_EIO);
        ck_assert_int_eq(f_num_servers(), F_ESTATE);
        ck_assert_int_eq(unsetenv("FILAMENTS_TRACE"), 0);
        t_start(2);
        t_assert_library_works();
        f_finalize();
    }
}
END_TEST

/* F_ESTATE: before f_initialize, after f_finalize, twice, stopping
 * nothing, from a filament; F_EINVAL: no path; bad variables. */
START_TEST(test_trace_errors_calls)
{
    char path[256];
    temp_path(path, sizeof path);
    ck_assert_int_eq(f_trace_start(path), F_ESTATE);
    ck_assert_int_eq(f_trace_start(NULL), F_ESTATE);
    ck_assert_int_eq(f_trace_stop(), F_ESTATE);
    t_start(2);
    ck_assert_int_eq(f_trace_stop(), F_ESTATE);
    ck_assert_int_eq(f_trace_start(NULL), F_EINVAL);
    ck_assert_int_eq(f_trace_start(""), F_EINVAL);
    for (long k = 0; k < 2; ++k) {
        atomic_store(&inside_rc, 1);
        ck_assert_int_eq(f_rtc_thread(0, call_from_filament, k, 0, path), F_OK);
        ck_assert_int_eq(f_parallel(), F_OK);
        ck_assert_int_eq(atomic_load(&inside_rc), F_ESTATE);
    }
    ck_assert_int_eq(f_trace_start(path), F_OK);
    ck_assert_int_eq(f_trace_start(path), F_ESTATE);
    atomic_store(&inside_rc, 1);
    ck_assert_int_eq(f_rtc_thread(1, call_from_filament, 1, 0, NULL), F_OK);
    ck_assert_int_eq(f_parallel(), F_OK);
    ck_assert_int_eq(atomic_load(&inside_rc), F_ESTATE);
    ck_assert_int_eq(f_trace_stop(), F_OK);
    ck_assert_int_eq(f_trace_stop(), F_ESTATE);
    t_assert_library_works();
    f_finalize();
    ck_assert_int_eq(f_trace_start(path), F_ESTATE);
    ck_assert_int_eq(f_trace_stop(), F_ESTATE);

    static const struct {
        const char *name, *value;
    } bad[] = { { "FILAMENTS_TRACE", "" },
                { "FILAMENTS_TRACE_EVENTS", "0" },
                { "FILAMENTS_TRACE_EVENTS", "-1" },
                { "FILAMENTS_TRACE_EVENTS", "abc" },
                { "FILAMENTS_TRACE_EVENTS", "3x" },
                { "FILAMENTS_TRACE_EVENTS", "" },
                { "FILAMENTS_TRACE_EVENTS", "16777217" } };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; ++k) {
        ck_assert_int_eq(setenv(bad[k].name, bad[k].value, 1), 0);
        ck_assert_msg(f_initialize(2) == F_EINVAL, "%s=\"%s\" accepted", bad[k].name, bad[k].value);
        ck_assert_int_eq(f_num_servers(), F_ESTATE);
        ck_assert_int_eq(unsetenv(bad[k].name), 0);
    }
    ck_assert_int_eq(setenv("FILAMENTS_TRACE_EVENTS", "16777216", 1), 0);
    t_start(2);
    t_assert_library_works();
    f_finalize();
    unlink(path);
}
END_TEST

Suite *make_suite(void)
{
    Suite *s = suite_create("trace");
    TCase *core = t_tcase(s, "core");
    tcase_add_loop_test(core, test_trace_rtc_on_one_server, 0, 3);
    tcase_add_loop_test(core, test_trace_passes, 0, T_NCOUNTS);
    tcase_add_loop_test(core, test_trace_steals, 0, 3);
    tcase_add_loop_test(core, test_trace_loops, 0, 3);
    tcase_add_test(core, test_trace_environment);
    tcase_add_test(core, test_trace_twice);
    tcase_add_test(core, test_trace_rank);
    TCase *limits = t_tcase(s, "limits");
    tcase_add_loop_test(limits, test_trace_tiny_buffer, 0, T_NCOUNTS);
    TCase *errors = t_tcase(s, "errors");
    tcase_add_test(errors, test_trace_errors_unwritable);
    tcase_add_test(errors, test_trace_errors_calls);
    return s;
}
