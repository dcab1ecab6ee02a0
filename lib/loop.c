/*
 * loop.c - parallel loops: a body over an index range, in one strip per
 * server (f_parallel_for, f_parallel_for_dynamic, f_parallel_reduce).
 *
 * A loop is what an iterative phase of the paper becomes when its pass is
 * one call [paper §2.2, §4.4]: the strips are the paper's static
 * placement of a phase's filaments, one stretch of the index range per
 * server, and the call's return is the barrier, with the program's own
 * code after it as the sequential code.  Where the paper's run pays for a
 * run's start and for each filament, a loop's call is one function call
 * per strip, and its start is as cheap as a parallel region's in OpenMP:
 *
 *  - From the main thread between runs, the call is a run of its own, but
 *    not f_parallel's: the main thread posts the loop to servers 1 .. n-1
 *    (a loop's team, server.c), runs strip 0 itself, and waits for the
 *    others' check-outs.  Nothing is allocated, no clock is read and no
 *    mechanism's hooks run: the servers' queues, phases and deques are
 *    left as they were, so a loop may come between creating filaments and
 *    the f_parallel that runs them.  With one server it is a call.
 *  - From a filament (fi_self set, in a run), strips 1 .. n-1 are forked
 *    as the caller's children, strip 0 runs in place, and the call joins
 *    them: a helper-join, whose server runs other filaments while it
 *    waits [paper §2.3, §4.5].
 *  - From a loop's body, the range runs there, as one strip (OpenMP's
 *    nested region of one thread): `in_body` marks the threads that run a
 *    main-thread loop's strips.
 *
 * Strips: server s's [begin + s*n/p, begin + (s+1)*n/p), the same on
 * every call of the same range, so a strip's data stays in its server's
 * cache from one call to the next, as an iterative filament's does.  From
 * the main thread a member's strip comes in parts, of which the main
 * thread runs those the member has not taken when strip 0 is done
 * (parts_of, server.c's team): a late member's, by default.  With
 * F_ADAPT_ALL (f_set_adaptive), a main-thread loop's strips are claimed
 * in chunks, a late server's taken by the others, and moved between calls
 * (strips.c); reductions keep the even strips, so that their fold does
 * not depend on the timing of a call.  A dynamic loop instead claims
 * `chunk` iterations at a time from one shared cursor
 * (`schedule(dynamic, chunk)`).  A reduction gives each
 * strip a partial of its own, one cache line apart, and the caller
 * combines them in strip order, so the result depends only on the strips.
 *
 * Who writes what: a main-thread loop's `current` and partials, the main
 * thread between runs, published to the team with team_gen (server.c);
 * the dynamic cursor, every member by fetch-and-add; each partial, the
 * thread that runs its strip (whole: one part) only, read by the caller
 * after the join.
 */
#include <limits.h>
#include <math.h>
#include <string.h>

#include "loop.h"
#include "memory.h"
#include "server.h"
#include "state.h"
#include "strips.h"
#include "trace.h"

/* One call: what each strip needs.  Written by the caller before the
 * strips start, read-only while they run, but for `next`. */
struct loop {
    f_loop_func body;
    f_reduce_loop_func reduce_body; /* a reduction's, instead of body */
    void *arg;
    long begin;
    unsigned long n;     /* iterations */
    unsigned long chunk; /* dynamic: iterations per claim; 0: strips */
    int nstrips;
    unsigned parts; /* of each member's strip, as a team's share (server.c) */
    int adaptive;   /* strips claimed in chunks and moved (strips.c) */
    char *partials; /* reduction: strip s's at partials + s * stride */
    size_t stride;
    const void *identity;
    size_t size;
    /* Dynamic: the next iteration not yet claimed, as an offset from
     * begin; every member's fetch-and-add, on a line of its own. */
    _Alignas(FI_CACHE_LINE) volatile AO_t next;
};

/* The main thread's loop, posted to the team, and the partials it keeps
 * for reductions between calls (grown, never shrunk, until f_finalize). */
static struct loop current;
static char *partials;
static size_t partials_bytes;

/* Set while the thread runs a strip of a main-thread loop. */
static __thread int in_body __attribute__((tls_model("initial-exec")));

/* The first iteration of strip s. */
static long strip_start(const struct loop *l, int s)
{
    return (long)((unsigned long)l->begin +
                  fi_even_cut(l->n, (unsigned long)s, (unsigned long)l->nstrips));
}

/* Strip s's iterations [*lo, *hi). */
static void strip_bounds(const struct loop *l, int s, long *lo, long *hi)
{
    *lo = l->begin;
    *hi = (long)((unsigned long)l->begin + l->n);
    if (l->nstrips > 1) { /* one strip is the range: no division */
        *lo = strip_start(l, s);
        if (s + 1 < l->nstrips)
            *hi = strip_start(l, s + 1);
    }
}

/* Strip s, or the chunks the caller claims from a dynamic loop. */
static void run_strip(struct loop *l, int s)
{
    if (l->adaptive) {
        fi_strips_run(s, l->body, l->arg);
        return;
    }
    if (l->chunk != 0) {
        AO_t at;
        while ((at = AO_fetch_and_add(&l->next, l->chunk)) < l->n) {
            unsigned long len = l->n - at < l->chunk ? l->n - at : l->chunk;
            long lo = (long)((unsigned long)l->begin + at);
            l->body(lo, (long)((unsigned long)lo + len), l->arg);
        }
        return;
    }
    long lo, hi;
    strip_bounds(l, s, &lo, &hi);
    if (l->reduce_body != NULL) {
        void *partial = l->partials + (size_t)s * l->stride;
        memcpy(partial, l->identity, l->size);
        if (lo < hi)
            l->reduce_body(lo, hi, l->arg, partial);
    } else if (lo < hi) {
        l->body(lo, hi, l->arg);
    }
}

/* Part `part` of `parts` of strip s of a plain loop (parts_of, below), cut
 * as strip_start cuts the range. */
static void run_part(struct loop *l, int s, unsigned part, unsigned parts)
{
    long lo, hi;
    strip_bounds(l, s, &lo, &hi);
    unsigned long len = (unsigned long)hi - (unsigned long)lo;
    hi = (long)((unsigned long)lo + fi_even_cut(len, part + 1, parts));
    lo = (long)((unsigned long)lo + fi_even_cut(len, part, parts));
    if (lo < hi)
        l->body(lo, hi, l->arg);
}

/* Part `part` of `parts` of strip s of the main thread's loop, recorded
 * in b where it is not NULL (a schedule trace, trace.c).  Inlined, so that
 * the main thread's own strip is a call of run_strip (bench/floor's loop
 * shape: 17 instructions more a call as a function). */
static inline __attribute__((always_inline)) void traced_strip(struct fi_trace_buf *b, int s,
                                                               unsigned part, unsigned parts)
{
    unsigned long start = fi_trace_now(b);
    if (parts > 1)
        run_part(&current, s, part, parts);
    else
        run_strip(&current, s);
    fi_trace_span(b, FI_TRACE_STRIP, start, fi_trace.calls, s, (long)part, 0);
}

/* A part of a team member's share of the main thread's loop (server.c):
 * on its own thread, or on the main thread where that took the part,
 * whose track then shows it. */
static void team_strip(struct fi_server *member, unsigned part)
{
    in_body = 1;
    traced_strip(fi_self == member ? member->trace : fi_trace_here, member->index, part,
                 current.parts);
    in_body = 0;
}

/*
 * The parts of a team member's strip: the main thread takes those that the
 * member has not taken when it is done with its own strip (server.c), so a
 * member that is late, or slowed by another program on its core, holds the
 * call back by one part: the default's adaptive placement, within a call.
 * A part of a reduction's strip would fold into its partial on either
 * thread, in an order that depends on the timing, so those strips, and
 * the claims of dynamic and F_ADAPT_ALL loops, are one part, as is every
 * strip where nothing may move (F_ADAPT_NONE).  No part under
 * PART_ITERATIONS iterations: each part costs its thread a CAS, a call of
 * the body and the division of its strip.  bench/floor's loop of 100
 * points at 2 servers, instructions a call (callgrind, waits left out;
 * which thread runs which part varies from run to run): 718 before the
 * parts, 823 with whole strips (F_ADAPT_NONE), 1843 with 8 parts of 6 or
 * 7 iterations, 1100 to 1200 with 3 parts of 16 or 17.
 */
#define LOOP_PARTS 8
#define PART_ITERATIONS 16
_Static_assert(LOOP_PARTS <= FI_TEAM_PARTS, "LOOP_PARTS");

static unsigned parts_of(const struct loop *l)
{
    if (l->reduce_body != NULL || l->chunk != 0 || l->adaptive || fi_lib.adapt == F_ADAPT_NONE ||
        fi_lib.adapt_off)
        return 1;
    unsigned long parts = l->n / (unsigned long)l->nstrips / PART_ITERATIONS;
    return parts < LOOP_PARTS ? (parts > 0 ? (unsigned)parts : 1) : LOOP_PARTS;
}

/* The main thread's loop, `current`: a run of its own, strip 0 here. */
static void run_from_main(void)
{
    AO_store(&fi_lib.state, FI_RUNNING); /* no f_parallel or creation from a body */
    /* One test of the trace on the way in, one on the way out. */
    struct fi_trace_buf *trace = NULL;
    if (FI_UNLIKELY(fi_trace.bufs != NULL)) {
        fi_trace_call_open();
        trace = fi_trace_here;
    }
    in_body = 1;
    if (current.nstrips > 1) {
        current.parts = parts_of(&current);
        fi_servers_team_post(team_strip, current.parts);
        traced_strip(trace, 0, 0, 1); /* the main thread's own: no parts */
        fi_servers_team_join();
        if (current.adaptive)
            fi_strips_end();
    } else {
        traced_strip(trace, 0, 0, 1);
    }
    in_body = 0;
    if (FI_UNLIKELY(trace != NULL))
        fi_trace_call_close(FI_TRACE_LOOP, (long)current.n);
    AO_store(&fi_lib.state, FI_READY);
}

/* A forked strip of a loop called from a filament. */
static void forked_strip(long s, long unused, void *arg)
{
    (void)unused;
    run_strip(arg, (int)s);
}

/* From a filament: strips 1 .. n-1 forked, strip 0 here, then the join.
 * A fork that fails runs its strip as a call. */
static int run_nested(struct loop *l)
{
    for (int s = 1; s < l->nstrips; ++s)
        if (f_fork(forked_strip, s, 0, l) < 0)
            run_strip(l, s);
    run_strip(l, 0);
    return f_join();
}

/* Where a call comes from. */
enum from { FROM_MAIN, FROM_FILAMENT, FROM_BODY };

/*
 * What every call does first: check where it comes from and its range,
 * and fill the common part of its loop: `current` for the main thread
 * (so nothing is copied on the way to the team), else *nested.  NULL with
 * *rc set where the call fails, or where it has nothing to do (an empty
 * range: *rc is F_OK).  From a body, one strip: the range runs there.
 */
static struct loop *begin_call(long begin, long end, int bad, struct loop *nested, enum from *from,
                               int *rc)
{
    if (in_body)
        *from = FROM_BODY;
    else if (fi_self == NULL && fi_state() == FI_READY)
        *from = FROM_MAIN;
    else if (fi_self != NULL && fi_state() == FI_RUNNING && !fi_self->creating)
        *from = FROM_FILAMENT;
    else {
        *rc = F_ESTATE;
        return NULL;
    }
    *rc = bad || begin > end ? F_EINVAL : F_OK;
    if (*rc < 0 || begin == end)
        return NULL;
    struct loop *l = *from == FROM_MAIN ? &current : nested;
    l->begin = begin;
    l->n = (unsigned long)end - (unsigned long)begin;
    l->nstrips = *from == FROM_BODY ? 1 : fi_lib.nservers;
    l->chunk = 0;
    l->adaptive = 0;
    return l;
}

/* Run l, called from `from`. */
static int run(struct loop *l, enum from from)
{
    if (from == FROM_MAIN) {
        run_from_main();
        return F_OK;
    }
    if (from == FROM_BODY) {
        run_strip(l, 0);
        return F_OK;
    }
    return run_nested(l);
}

/* A loop without reduction: body over l's range, by strips or chunks. */
static int run_plain(struct loop *l, enum from from, f_loop_func body, void *arg)
{
    l->body = body;
    l->reduce_body = NULL;
    l->arg = arg;
    return run(l, from);
}

int f_parallel_for(long begin, long end, f_loop_func body, void *arg)
{
    struct loop nested;
    enum from from;
    int rc;
    struct loop *l = begin_call(begin, end, body == NULL, &nested, &from, &rc);
    if (l == NULL)
        return rc;
    if (from == FROM_MAIN && fi_strips_adaptive()) {
        l->adaptive = 1;
        fi_strips_begin(body, begin, l->n);
    }
    return run_plain(l, from, body, arg);
}

int f_parallel_for_dynamic(long begin, long end, long chunk, f_loop_func body, void *arg)
{
    struct loop nested;
    enum from from;
    int rc;
    struct loop *l = begin_call(begin, end, body == NULL || chunk < 1, &nested, &from, &rc);
    if (l == NULL)
        return rc;
    if (from != FROM_BODY) {
        l->chunk = (unsigned long)chunk < l->n ? (unsigned long)chunk : l->n;
        AO_store(&l->next, 0);
    }
    return run_plain(l, from, body, arg);
}

/* Room for nstrips partials of `size` bytes, a cache line apart each:
 * from the main thread its kept block, grown as needed; else the
 * caller's `local` if it is large enough, or a block to free. */
static int partials_room(struct loop *l, enum from from, char *local, size_t local_bytes,
                         char **block)
{
    l->stride = (l->size + FI_CACHE_LINE - 1) / FI_CACHE_LINE * FI_CACHE_LINE;
    size_t bytes = l->stride * (size_t)l->nstrips;
    *block = NULL;
    if (from == FROM_MAIN) {
        if (bytes > partials_bytes) {
            char *p = fi_alloc_aligned(bytes);
            if (p == NULL)
                return F_ENOMEM;
            fi_free(partials);
            partials = p;
            partials_bytes = bytes;
        }
        l->partials = partials;
    } else if (bytes <= local_bytes) {
        l->partials = local;
    } else if ((l->partials = *block = fi_alloc_aligned(bytes)) == NULL) {
        return F_ENOMEM;
    }
    return F_OK;
}

/* Partials on the stack of a nested reduction: 8 strips of a line each. */
#define LOCAL_PARTIALS (8 * FI_CACHE_LINE)

int f_parallel_reduce(long begin, long end, f_reduce_loop_func body, void *arg, void *result,
                      const void *identity, size_t size, f_combine_func combine)
{
    struct loop nested;
    enum from from;
    int rc;
    int bad = body == NULL || result == NULL || identity == NULL || size == 0 || combine == NULL;
    struct loop *l = begin_call(begin, end, bad, &nested, &from, &rc);
    if (l == NULL)
        return rc;
    l->body = NULL;
    l->reduce_body = body;
    l->arg = arg;
    l->identity = identity;
    l->size = size;
    _Alignas(FI_CACHE_LINE) char local[LOCAL_PARTIALS];
    char *block;
    if ((rc = partials_room(l, from, local, sizeof local, &block)) < 0)
        return rc;
    rc = run(l, from);
    if (rc == F_OK)
        for (int s = 0; s < l->nstrips; ++s)
            combine(result, l->partials + (size_t)s * l->stride);
    fi_free(block);
    return rc;
}

/* F_PARALLEL_REDUCE's operations (filaments/loop-private.h). */
static void sum_long(void *into, const void *from)
{
    *(long *)into += *(const long *)from;
}
static void min_long(void *into, const void *from)
{
    if (*(const long *)from < *(long *)into)
        *(long *)into = *(const long *)from;
}
static void max_long(void *into, const void *from)
{
    if (*(const long *)from > *(long *)into)
        *(long *)into = *(const long *)from;
}
static void sum_double(void *into, const void *from)
{
    *(double *)into += *(const double *)from;
}
static void min_double(void *into, const void *from)
{
    if (*(const double *)from < *(double *)into)
        *(double *)into = *(const double *)from;
}
static void max_double(void *into, const void *from)
{
    if (*(const double *)from > *(double *)into)
        *(double *)into = *(const double *)from;
}

int f_loop_op_(enum f_op op, char type, f_combine_func *combine, const void **identity)
{
    static const long long_ids[] = { 0, LONG_MAX, LONG_MIN };
    static const double double_ids[] = { 0.0, HUGE_VAL, -HUGE_VAL };
    static const f_combine_func longs[] = { sum_long, min_long, max_long };
    static const f_combine_func doubles[] = { sum_double, min_double, max_double };
    if ((unsigned)op > F_MAX || (type != 'l' && type != 'd'))
        return F_EINVAL;
    *combine = type == 'l' ? longs[op] : doubles[op];
    *identity = type == 'l' ? (const void *)&long_ids[op] : (const void *)&double_ids[op];
    return F_OK;
}

/* f_finalize: the main thread's partials go. */
static void loop_free(void)
{
    fi_free(partials);
    partials = NULL;
    partials_bytes = 0;
}

const struct fi_mechanism fi_loop_mechanism = { .free = loop_free };
