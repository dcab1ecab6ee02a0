/*
 * adapt.c - adaptive placement of iterative filaments (beyond the paper;
 * the "variable block" placement of Lowenthal and Andrews, "An Adaptive
 * Approach to Data Placement", IPPS 1996, done within a pass as well).
 *
 * The paper's iterative filaments stay where the program put them, and
 * every pass waits at the barrier for the slowest server's strip [§2.2,
 * §4.4].  On unequal or shared cores (a second program, a busy neighbour,
 * a slower core) that strip is late in every pass.  Filaments are small
 * and stateless, so the run time can move them: here a phase's runs lie on
 * one line, server 0's first, then server 1's, and each server's strip is
 * a stretch of the line.
 *
 *  - Within a pass, the owner claims its strip's runs from the end its
 *    pass starts at, about FI_ADAPT_CLAIM_NS of work at a time, and a
 *    server that has run its own takes half of what is left of the
 *    fullest strip, from the other end.  Rows stay whole and neighbours
 *    together, and a server taken off its core holds back one claim, not
 *    its strip.
 *  - Between passes, the decider moves the strips' ends toward the
 *    filaments each server ran, its own and taken, smoothed over passes
 *    (FI_ADAPT_SMOOTHING), so that in the steady state each server runs
 *    its own strip and takes nothing; an end moves only by more than a
 *    sixteenth of an even share (FI_ADAPT_HYSTERESIS), so that noise does
 *    not move it to and fro.  A pass in which servers traded cores
 *    (handoff.c) counts for nothing: the server that was slow is now on
 *    the fast core.
 *
 * A claim is one word per server, changed by CAS by the owner and the
 * takers alike: the pass (its low bits) and the runs lo .. hi - 1 not yet
 * claimed.  A word that shows an earlier pass stands for the whole strip,
 * and whoever first claims from it in a pass, the owner or a taker,
 * writes the pass in; so a server that starts its pass late loses its
 * strip to the others instead of holding the barrier.  The owner writes
 * the pass in even where its strip is empty, so every word shows this pass
 * or the one before, and the low bits tell the two apart.
 *
 * A pass ends as the paper's does: a server arrives at the barrier once
 * its own strip is claimed, what it claimed has run and no strip has runs
 * left to take, so when all have arrived, every run of the pass has run.
 */
#include <limits.h>

#include "adapt.h"
#include "memory.h"
#include "wait.h"

/* A claim word: the pass's low PASS_BITS, then lo and hi, RUN_BITS each
 * (16 and 24 in a 64-bit word: 16 million runs in a phase). */
enum {
    WORD_BITS = (int)(sizeof(AO_t) * CHAR_BIT),
    PASS_BITS = WORD_BITS / 4,
    RUN_BITS = (WORD_BITS - PASS_BITS) / 2
};
#define PASS_MASK (((AO_t)1 << PASS_BITS) - 1)
#define RUN_MASK (((AO_t)1 << RUN_BITS) - 1)

static AO_t pack(unsigned long pass, size_t lo, size_t hi)
{
    return ((AO_t)pass & PASS_MASK) << (2 * RUN_BITS) | (AO_t)lo << RUN_BITS | (AO_t)hi;
}

/* Runs lo .. hi - 1 of the line. */
struct span {
    size_t lo, hi;
};

/* Has anybody claimed from the strip of word w in this pass? */
static int begun(const struct fi_adapt *a, AO_t w)
{
    return w >> (2 * RUN_BITS) == (a->passes & PASS_MASK);
}

/* What is left of server s's strip in this pass, as its word w shows it. */
static struct span left(const struct fi_adapt *a, int s, AO_t w)
{
    if (begun(a, w))
        return (struct span){ (size_t)(w >> RUN_BITS & RUN_MASK), (size_t)(w & RUN_MASK) };
    return (struct span){ a->bound[s], a->bound[s + 1] };
}

static unsigned long filaments(const struct fi_adapt *a, struct span l)
{
    return l.lo < l.hi ? a->before[l.hi] - a->before[l.lo] : 0;
}

/* The first k in [lo, hi] with b[k] > v, or hi. */
static size_t first_above(const unsigned long *b, size_t lo, size_t hi, unsigned long v)
{
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (b[mid] > v)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* The owner's claim: the runs at its end of what is left (the high end
 * for high) that hold at least a->grain filaments, or all of them. */
static size_t owners_part(const struct fi_adapt *a, struct span l, int high)
{
    const unsigned long *b = a->before;
    if (filaments(a, l) <= a->grain)
        return l.hi - l.lo;
    if (!high)
        return first_above(b, l.lo + 1, l.hi, b[l.lo] + a->grain - 1) - l.lo;
    return l.hi - (first_above(b, l.lo, l.hi, b[l.hi] - a->grain) - 1);
}

/*
 * Claim runs of server s's strip in this pass, from its low end or (high)
 * its high end: the owner's part, or a taker's, half of what is left,
 * rounded up; return them, none if none is left.  The CAS decides between
 * the owner and the takers.
 */
static struct span claim(struct fi_adapt *a, int s, int high, int owner)
{
    volatile AO_t *word = &a->claim[s].word;
    for (;;) {
        AO_t w = AO_load(word);
        struct span l = left(a, s, w);
        if (l.lo >= l.hi) {
            /* Nothing to claim: write the pass in all the same (above). */
            if (!begun(a, w))
                AO_compare_and_swap(word, w, pack(a->passes, l.lo, l.hi));
            return (struct span){ 0, 0 };
        }
        size_t k = owner ? owners_part(a, l, high) : (l.hi - l.lo + 1) / 2;
        struct span rest = high ? (struct span){ l.lo, l.hi - k } : (struct span){ l.lo + k, l.hi };
        if (AO_compare_and_swap(word, w, pack(a->passes, rest.lo, rest.hi)))
            return high ? (struct span){ rest.hi, l.hi } : (struct span){ l.lo, rest.lo };
    }
}

/* Run the runs of c, in the pass's direction; return their filaments. */
static unsigned long run(const struct fi_adapt *a, struct span c, int backward)
{
    if (a->points_only)
        fi_rows_run_points(a->run + c.lo, c.hi - c.lo, backward);
    else
        fi_rows_run(a->run + c.lo, c.hi - c.lo, backward);
    return filaments(a, c);
}

/*
 * The server other than me with the most filaments left worth taking, or
 * -1: a strip whose owner has not begun the pass, or one with more left
 * than the owner claims at a time.  Less than that, the owner will be
 * done about as soon as a taker, and taking would only move the rows'
 * data between caches at the end of every pass (Gauss 1400 on 2 quiet
 * servers ran 5% slower so, where each pass is 100 us).
 */
static int fullest(const struct fi_adapt *a, int me)
{
    int best = -1;
    unsigned long most = 0;
    for (int s = 0; s < a->nservers; ++s) {
        if (s == me)
            continue;
        AO_t w = AO_load(&a->claim[s].word);
        unsigned long f = filaments(a, left(a, s, w));
        if (f > most && (!begun(a, w) || f > a->grain)) {
            most = f;
            best = s;
        }
    }
    return best;
}

/* Passes alternate direction [§4.4], unless a range version, which walks
 * its row forward, makes every pass go forward (phase.c, fi_phase_pass). */
static int backward_pass(const struct fi_adapt *a)
{
    return !a->ranged && (a->passes & 1);
}

unsigned long fi_adapt_pass(struct fi_adapt *a, int me, struct fi_trace_buf *trace)
{
    unsigned long start = fi_clock_ns(), ran = 0;
    int backward = backward_pass(a);
    for (;;) {
        struct span c = claim(a, me, backward, 1);
        if (c.lo == c.hi)
            break;
        ran += run(a, c, backward);
    }
    for (int s; (s = fullest(a, me)) >= 0;) {
        unsigned long taken_at = fi_trace_now(trace);
        struct span c = claim(a, s, !backward, 0);
        if (c.lo == c.hi)
            continue;
        unsigned long f = run(a, c, backward);
        ran += f;
        fi_trace_span(trace, FI_TRACE_TAKE, taken_at, s, (long)c.lo, (long)(c.hi - c.lo),
                      (long)f);
    }
    a->pass[me] = (struct fi_adapt_pass){ ran, fi_clock_ns() - start };
    return ran;
}

void fi_adapt_shape(const struct fi_adapt *a, int me, int *backward, unsigned long *filaments_)
{
    *backward = backward_pass(a);
    *filaments_ = filaments(a, (struct span){ a->bound[me], a->bound[me + 1] });
}

/* The end of a strip that starts at `from` nearest to `filaments` of the
 * line: a run index in [from, n]. */
static size_t nearest(const struct fi_adapt *a, size_t from, double filaments_)
{
    unsigned long v = filaments_ > 0 ? (unsigned long)filaments_ : 0;
    size_t k = first_above(a->before, from, a->n, v);
    if (k > from && (double)a->before[k] - filaments_ > filaments_ - (double)a->before[k - 1])
        --k;
    return k;
}

/* Tests (force): an end anywhere from the strip's start to twice an even
 * share of the runs that follow, a new place every pass. */
static size_t forced(const struct fi_adapt *a, int s)
{
    unsigned long x = (a->passes + 1) * 2654435761UL + (unsigned long)s * 40503UL;
    size_t from = a->bound[s], after = a->n - from;
    size_t room = 2 * after / (size_t)(a->nservers - s);
    return from + (size_t)(x >> 7) % ((room < after ? room : after) + 1);
}

/* The grain of an owner's claim: FI_ADAPT_CLAIM_NS of work at the rate of
 * the fastest server in the last pass. */
static unsigned long grain(const struct fi_adapt *a)
{
    double ns = 0;
    for (int s = 0; s < a->nservers; ++s) {
        const struct fi_adapt_pass *p = &a->pass[s];
        double rate = p->ran > 0 ? (double)p->busy_ns / (double)p->ran : 0;
        if (rate > 0 && (ns == 0 || rate < ns))
            ns = rate;
    }
    double g = ns > 0 ? (double)FI_ADAPT_CLAIM_NS / ns : 1;
    return g >= 1 ? (unsigned long)g : 1;
}

void fi_adapt_passed(struct fi_adapt *a, int phase, int force, int traded,
                     struct fi_trace_buf *trace)
{
    int n = a->nservers;
    a->grain = grain(a);
    if (traded && !force) {
        /* A server taken off its core went on on another (handoff.c): no
         * server is slower than the others for long, and the taking
         * within a pass evens out the rest. */
        a->passes++;
        return;
    }
    for (int s = 0; s < n; ++s)
        a->share[s] += ((double)a->pass[s].ran - a->share[s]) / FI_ADAPT_SMOOTHING;
    double least = (double)a->before[a->n] / ((double)n * FI_ADAPT_HYSTERESIS), upto = 0;
    for (int s = 0; s + 1 < n; ++s) {
        upto += a->share[s];
        size_t was = a->bound[s + 1], end = force ? forced(a, s) : nearest(a, a->bound[s], upto);
        double moved = (double)a->before[end] - (double)a->before[was];
        if (!force && moved < least && -moved < least)
            end = was > a->bound[s] ? was : a->bound[s];
        if (end == was)
            continue;
        a->bound[s + 1] = end;
        if (trace != NULL) {    /* an instant: the end, the runs server s gained, and why */
            unsigned long now = fi_clock_ns();
            fi_trace_add(trace, FI_TRACE_MOVE, now, now, phase, s, (long)end - (long)was,
                         (long)a->share[s]);
        }
    }
    a->passes++;
}

struct fi_adapt *fi_adapt_new(size_t runs, int nservers)
{
    if (runs > RUN_MASK)
        return NULL;
    struct fi_adapt *a = fi_alloc(sizeof *a);
    if (a == NULL)
        return NULL;
    size_t servers = (size_t)nservers;
    *a = (struct fi_adapt){ .n = runs, .nservers = nservers, .grain = 1 };
    a->run = fi_alloc(runs * sizeof *a->run);
    a->before = fi_alloc((runs + 1) * sizeof *a->before);
    a->bound = fi_alloc((servers + 1) * sizeof *a->bound);
    a->share = fi_alloc(servers * sizeof *a->share);
    a->claim = fi_alloc_aligned(servers * sizeof *a->claim);
    a->pass = fi_alloc_aligned(servers * sizeof *a->pass);
    if (a->run == NULL || a->before == NULL || a->bound == NULL || a->share == NULL ||
        a->claim == NULL || a->pass == NULL) {
        fi_adapt_free(a);
        return NULL;
    }
    return a;
}

void fi_adapt_ready(struct fi_adapt *a)
{
    struct fi_range_cache cache = { NULL, NULL };
    a->before[0] = 0;
    a->ranged = 0;
    for (size_t k = 0; k < a->n; ++k) {
        const struct fi_row *r = &a->run[k];
        a->before[k + 1] = a->before[k] + fi_row_points(r);
        a->ranged |= fi_range_cached(&cache, r->fn) != NULL && r->j_last != LONG_MAX;
    }
    /* As phase.c's begin_run decides it for a server's runs. */
    a->points_only = !fi_range_versions_named() && a->before[a->n] == a->n;
    for (int s = 0; s < a->nservers; ++s) {
        a->share[s] = (double)filaments(a, (struct span){ a->bound[s], a->bound[s + 1] });
        /* The pass before the first: every word stands for its strip. */
        AO_store(&a->claim[s].word, pack(a->passes - 1, 0, 0));
        a->pass[s] = (struct fi_adapt_pass){ 0, 0 };
    }
}

void fi_adapt_free(struct fi_adapt *a)
{
    if (a == NULL)
        return;
    fi_free(a->run);
    fi_free(a->before);
    fi_free(a->bound);
    fi_free(a->share);
    fi_free(a->claim);
    fi_free(a->pass);
    fi_free(a);
}
