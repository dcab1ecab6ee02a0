/*
 * trace.c - the schedule trace: where each server's time went, span by
 * span, for the questions the paper's section 3 answers by hand (which
 * server idled, how long each barrier waited, whether stealing balanced
 * the work) [paper §3, §4.4, §4.5].
 *
 * Recording is the hooks' (trace.h): the scheduler's episodes, passes,
 * drains, barriers and barrier code, fork/join's steals and joins that
 * wait, rtc.c's claims, wait.c's yields and sleeps, creation's calls, the
 * main thread's loop calls and their strips (loop.c), each into the buffer
 * of the thread it happened on.  This file starts and
 * stops a trace (FILAMENTS_TRACE at f_initialize, f_trace_start(3)),
 * numbers the main thread's calls of the servers, and writes the file: one
 * JSON object in the Chrome Trace Event Format, which Perfetto's UI and
 * chrome://tracing open as it is, a track (tid) per server and one for the
 * main thread, each span a complete event ("ph":"X"), a move of a strip's end
 * an instant ("ph":"i"), in microseconds from
 * the trace's start.
 *
 * The file is opened by the call that starts the trace, so that a path
 * that cannot be written fails that call (F_EIO) rather than the end of
 * the program, and written when the trace stops.  Written by the main
 * thread between runs, or once the servers have stopped; the buffers'
 * owners are in trace.h.
 */
#define _POSIX_C_SOURCE 200809L /* gethostname */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace.h"
#include "memory.h"
#include "env.h"
#include "state.h"

struct fi_trace fi_trace = { .fd = -1 };

/* An argument's name, and the words its values stand for, if any. */
struct arg_name {
    const char *name;
    const char *const *words;
};
static const char *const directions[] = { "forward", "backward" };
static const char *const verdicts[] = { "next", "done" };
static const char *const stolen_kinds[] = { "fork/join", "F_ANY" };

/* Each kind's name in the file, its category (the activity that
 * scripts/trace-chart colors it as), and its arguments; f_trace_start(3)
 * has the same table. */
static const struct {
    const char *name, *category;
    struct arg_name arg[FI_TRACE_ARGS];
    int instant;  /* written as an instant event ("ph":"i"), its end not used */
} kinds[FI_TRACE_KINDS] = {
    [FI_TRACE_PARALLEL] = { "f_parallel", "run", { { "call" } } },
    [FI_TRACE_CREATE] = { "f_create_per_server", "create", { { "call" }, { "result" } } },
    [FI_TRACE_RUN] = { "run", "run", { { "call" } } },
    [FI_TRACE_CREATOR] = { "creator", "create", { { "call" }, { "result" } } },
    [FI_TRACE_PASS] = { "pass",
                        "work",
                        { { "phase" }, { "pass" }, { "direction", directions }, { "filaments" } } },
    [FI_TRACE_DRAIN] = { "drain", "work", { { "episode" }, { "rtc_filaments" }, { "forkjoin" } } },
    [FI_TRACE_BARRIER] = { "barrier",
                           "barrier",
                           { { "episode" }, { "phase" }, { "rounds" }, { "verdict", verdicts } } },
    [FI_TRACE_BARRIER_CODE] = { "barrier code",
                                "barrier code",
                                { { "phase" }, { "verdict", verdicts } } },
    [FI_TRACE_SETTLE] = { "settle", "barrier", { { "stage" } } },
    [FI_TRACE_STEAL] = { "steal",
                         "steal",
                         { { "victim" }, { "filaments" }, { "kind", stolen_kinds } } },
    [FI_TRACE_TAKE] = { "take",
                        "steal",
                        { { "victim" }, { "first_run" }, { "runs" }, { "filaments" } } },
    [FI_TRACE_MOVE] = { "move",
                        "placement",
                        { { "phase" }, { "server" }, { "runs" }, { "share" } },
                        1 },
    [FI_TRACE_HANDOFF] = { "handoff",
                           "placement",
                           { { "server" }, { "cpu" }, { "cpu_given" } },
                           1 },
    [FI_TRACE_JOIN_WAIT] = { "join wait", "join", { { "thief" }, { "steals" } } },
    [FI_TRACE_POLL] = { "poll", "poll", { { "polls" }, { "rtc_filaments" } } },
    [FI_TRACE_YIELD] = { "yield", "idle", { { NULL } } },
    [FI_TRACE_SLEEP] = { "sleep", "idle", { { NULL } } },
    [FI_TRACE_LOOP] = { "loop", "run", { { "call" }, { "iterations" } } },
    [FI_TRACE_STRIP] = { "strip", "work", { { "call" }, { "strip" }, { "part" } } },
};

static struct fi_trace_buf *main_buf(void)
{
    return fi_trace.bufs != NULL ? &fi_trace.bufs[fi_lib.nservers] : NULL;
}

/* The file's process: the MPI rank where a launcher gave one, so that the
 * ranks' files load side by side in their order; else the process id. */
static long process(void)
{
    return fi_trace.rank >= 0 ? fi_trace.rank : (long)getpid();
}

/* ------------------------------------------------------------- the file */

/* A copy of path with each "%r" replaced by process(): each MPI rank of a
 * program writes a file of its own.  NULL when out of memory. */
static char *expand(const char *path)
{
    char id[24];
    snprintf(id, sizeof id, "%ld", process());
    size_t marks = 0;
    for (const char *p = strstr(path, "%r"); p != NULL; p = strstr(p + 2, "%r"))
        ++marks;
    char *s = fi_alloc(strlen(path) + marks * strlen(id) + 1), *out = s;
    if (s == NULL)
        return NULL;
    for (const char *p = path; *p != '\0';) {
        if (p[0] == '%' && p[1] == 'r') {
            out = stpcpy(out, id);
            p += 2;
        } else {
            *out++ = *p++;
        }
    }
    *out = '\0';
    return s;
}

/* Open path for writing without truncating it yet: an f_initialize that
 * fails later leaves a file that was there as it was, and removes one it
 * created. */
static FI_MUST_CHECK int open_file(const char *path)
{
    fi_trace.created = 1;
    fi_trace.fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fi_trace.fd < 0 && errno == EEXIST) {
        fi_trace.created = 0;
        fi_trace.fd = open(path, O_WRONLY | O_CLOEXEC);
    }
    return fi_trace.fd >= 0 ? F_OK : F_EIO;
}

static void put_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s != '\0'; ++s) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

/* ns nanoseconds as a sign, whole microseconds and three decimals, for
 * MICROS_FORMAT and MICROS_ARGS: integers, as a double's conversion costs
 * thousands of instructions, once per span. */
struct micros {
    const char *sign;
    unsigned long whole, thousandths;
};
#define MICROS_FORMAT "%s%lu.%03lu"
#define MICROS_ARGS(m) (m).sign, (m).whole, (m).thousandths

static struct micros micros(long ns)
{
    unsigned long u = ns < 0 ? 0UL - (unsigned long)ns : (unsigned long)ns;
    return (struct micros){ ns < 0 ? "-" : "", u / 1000, u % 1000 };
}

/* Each track in the order of its spans' starts, an enclosing span before
 * what it encloses: Perfetto nests spans of one track by their times, and
 * a reader can check that a track's times never go back. */
static int by_start(const void *a, const void *b)
{
    const struct fi_trace_event *x = a, *y = b;
    if (x->start_ns != y->start_ns)
        return x->start_ns < y->start_ns ? -1 : 1;
    return x->end_ns > y->end_ns ? -1 : x->end_ns < y->end_ns;
}

/* One span, in as few calls of fprintf as it has arguments and one: the
 * writer's cost is in them.  The names of kinds, categories, arguments and
 * words are the table's above, with nothing to escape. */
static void put_event(FILE *f, int pid, int tid, const struct fi_trace_event *e)
{
    struct micros ts = micros((long)(e->start_ns - fi_trace.origin_ns));
    fprintf(f, ",\n{\"name\":\"%s\",\"cat\":\"%s\",\"pid\":%d,\"tid\":%d,\"ts\":" MICROS_FORMAT,
            kinds[e->kind].name, kinds[e->kind].category, pid, tid, MICROS_ARGS(ts));
    if (kinds[e->kind].instant) {
        fputs(",\"ph\":\"i\",\"s\":\"t\",\"args\":{", f);
    } else {
        struct micros dur = micros((long)(e->end_ns - e->start_ns));
        fprintf(f, ",\"ph\":\"X\",\"dur\":" MICROS_FORMAT ",\"args\":{", MICROS_ARGS(dur));
    }
    for (int k = 0; k < FI_TRACE_ARGS && kinds[e->kind].arg[k].name != NULL; ++k) {
        const struct arg_name *a = &kinds[e->kind].arg[k];
        if (a->words != NULL)
            fprintf(f, "%s\"%s\":\"%s\"", k > 0 ? "," : "", a->name, a->words[e->arg[k] != 0]);
        else
            fprintf(f, "%s\"%s\":%ld", k > 0 ? "," : "", a->name, e->arg[k]);
    }
    fputs("}}", f);
}

/* A track: its name and place, its spans, and how many it dropped. */
static void put_track(FILE *f, int pid, int tid, const char *name, struct fi_trace_buf *b)
{
    fprintf(f,
            ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"args\":{\"name\":",
            pid, tid);
    put_string(f, name);
    fprintf(f,
            "}},\n{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,"
            "\"args\":{\"sort_index\":%d}}",
            pid, tid, tid);
    qsort(b->event, b->n, sizeof *b->event, by_start);
    unsigned long last = fi_trace.origin_ns;
    for (size_t k = 0; k < b->n; ++k) {
        put_event(f, pid, tid, &b->event[k]);
        if (b->event[k].end_ns > last)
            last = b->event[k].end_ns;
    }
    if (b->dropped > 0) {
        struct micros ts = micros((long)(last - fi_trace.origin_ns));
        fprintf(f,
                ",\n{\"name\":\"dropped spans\",\"cat\":\"trace\",\"ph\":\"i\",\"s\":\"t\","
                "\"pid\":%d,\"tid\":%d,\"ts\":" MICROS_FORMAT ",\"args\":{\"dropped\":%lu}}",
                pid, tid, MICROS_ARGS(ts), b->dropped);
    }
}

/* The whole file; F_OK or F_EIO.  The descriptor is closed either way. */
static FI_MUST_CHECK int write_file(void)
{
    FILE *f = ftruncate(fi_trace.fd, 0) == 0 ? fdopen(fi_trace.fd, "w") : NULL;
    if (f == NULL) {
        close(fi_trace.fd);
        return F_EIO;
    }
    const int n = fi_lib.nservers, pid = (int)process();
    char host[256] = "unknown";
    if (gethostname(host, sizeof host) != 0 || memchr(host, '\0', sizeof host) == NULL)
        strcpy(host, "unknown");
    unsigned long dropped = 0;
    for (int k = 0; k <= n; ++k)
        dropped += fi_trace.bufs[k].dropped;

    char process_name[48] = "libfilaments";
    if (fi_trace.rank >= 0)
        snprintf(process_name, sizeof process_name, "libfilaments rank %ld", fi_trace.rank);
    fprintf(f,
            "{\"traceEvents\":[\n{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%d,\"tid\":0,"
            "\"args\":{\"name\":",
            pid);
    put_string(f, process_name);
    fputs("}}", f);
    put_track(f, pid, 0, "main", main_buf());
    for (int s = 0; s < n; ++s) {
        char name[32];
        snprintf(name, sizeof name, "server %d", s);
        put_track(f, pid, s + 1, name, &fi_trace.bufs[s]);
    }
    fputs("\n],\n\"displayTimeUnit\":\"ns\",\n\"otherData\":{\"library\":\"libfilaments\","
          "\"version\":",
          f);
    put_string(f, PACKAGE_VERSION);
    fputs(",\"machine\":", f);
    put_string(f, host);
    fprintf(f,
            ",\"cpus\":%ld,\"servers\":%d,\"pid\":%d,\"rank\":%ld,\"clock\":\"CLOCK_MONOTONIC\","
            "\"origin_ns\":%lu,\"events_per_track\":%zu,\"dropped_events\":%lu}}\n",
            sysconf(_SC_NPROCESSORS_ONLN), n, pid, fi_trace.rank, fi_trace.origin_ns,
            fi_trace.events, dropped);
    int bad = ferror(f);
    return fclose(f) != 0 || bad ? F_EIO : F_OK;
}

/* -------------------------------------------------------- start and stop */

static void free_buffers(void)
{
    for (int k = 0; fi_trace.bufs != NULL && k <= fi_lib.nservers; ++k)
        fi_free_pages(fi_trace.bufs[k].event, fi_trace.events * sizeof(struct fi_trace_event));
    fi_free(fi_trace.bufs);
    fi_trace.bufs = NULL;
}

/* Stop recording: write the file (F_OK or F_EIO), or, undoing a start,
 * close it and remove it if the start created it. */
static int stop(int write)
{
    for (int s = 0; s < fi_lib.nservers; ++s)
        fi_lib.servers[s].trace = NULL;
    int rc = F_OK;
    if (write) {
        rc = write_file();
    } else {
        close(fi_trace.fd);
        if (fi_trace.created)
            unlink(fi_trace.path);
    }
    fi_trace.fd = -1;
    free_buffers();
    fi_free(fi_trace.path);
    fi_trace.path = NULL;
    return rc;
}

/* Open path, make a buffer per track, and record from now on: F_OK, or
 * F_EIO or F_ENOMEM with nothing left. */
static FI_MUST_CHECK int start(const char *path)
{
    const int tracks = fi_lib.nservers + 1;
    if ((fi_trace.path = expand(path)) == NULL)
        return F_ENOMEM;
    if (open_file(fi_trace.path) < 0) {
        fi_free(fi_trace.path);
        fi_trace.path = NULL;
        return F_EIO;
    }
    int ok = (fi_trace.bufs = fi_alloc_aligned((size_t)tracks * sizeof *fi_trace.bufs)) != NULL;
    if (ok)
        memset(fi_trace.bufs, 0, (size_t)tracks * sizeof *fi_trace.bufs);
    /* Zeroed pages, touched as the spans come: a generous default costs
     * nothing where the trace is short. */
    for (int k = 0; ok && k < tracks; ++k) {
        fi_trace.bufs[k].event =
            fi_alloc_zeroed_pages(fi_trace.events * sizeof(struct fi_trace_event));
        fi_trace.bufs[k].cap = fi_trace.events;
        ok = fi_trace.bufs[k].event != NULL;
    }
    if (!ok) {
        stop(0);
        return F_ENOMEM;
    }
    fi_trace.calls = 0;
    fi_trace.origin_ns = fi_clock_ns();
    for (int s = 0; s < tracks - 1; ++s)
        fi_lib.servers[s].trace = &fi_trace.bufs[s];
    return F_OK;
}

int f_trace_start(const char *path)
{
    if (fi_check_main_between_runs() < 0 || fi_trace.bufs != NULL)
        return F_ESTATE;
    if (path == NULL || path[0] == '\0')
        return F_EINVAL;
    return start(path);
}

int f_trace_stop(void)
{
    if (fi_check_main_between_runs() < 0 || fi_trace.bufs == NULL)
        return F_ESTATE;
    return stop(1);
}

/* ------------------------------------------------- the main thread's calls */

void fi_trace_call_open(void)
{
    fi_trace.calls++;
    fi_trace_here = main_buf();
    fi_trace.call_start_ns = fi_clock_ns();
}

void fi_trace_call_close(enum fi_trace_kind kind, long result)
{
    fi_trace_here = NULL;
    fi_trace_span(main_buf(), kind, fi_trace.call_start_ns, fi_trace.calls, result, 0, 0);
}

static void begin_run(void)
{
    fi_trace_call_begin();
}

static void end_run(void)
{
    fi_trace_call_end(FI_TRACE_PARALLEL, F_OK);
}

/* ------------------------------------------------------------ life cycle */

/* f_initialize: FILAMENTS_TRACE_EVENTS for every trace, and FILAMENTS_TRACE's. */
static int trace_alloc(const struct fi_env *env)
{
    fi_trace.bufs = NULL;
    fi_trace.fd = -1;
    fi_trace.events = (size_t)env->trace_events;
    fi_trace.rank = env->rank;
    return env->trace_path != NULL ? start(env->trace_path) : F_OK;
}

/* f_finalize, the servers stopped: the file of a trace still recording.
 * f_finalize cannot return its error; f_trace_stop can (f_trace_start(3)). */
static void trace_finalize(void)
{
    if (fi_trace.bufs != NULL)
        (void)stop(1);
}

/* After trace_finalize there is nothing to free; before it, this undoes a
 * failed f_initialize's start. */
static void trace_free(void)
{
    if (fi_trace.bufs != NULL)
        (void)stop(0);
}

const struct fi_mechanism fi_trace_mechanism = { .alloc = trace_alloc,
                                                 .begin_run = begin_run,
                                                 .end_run = end_run,
                                                 .finalize = trace_finalize,
                                                 .free = trace_free };
