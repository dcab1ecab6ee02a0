/*
 * strips.c - adaptive strips of a parallel loop called from the main
 * thread (beyond the paper; adapt.c does the same for an iterative phase,
 * after Lowenthal and Andrews, "An Adaptive Approach to Data Placement",
 * IPPS 1996).
 *
 * A loop's strips are the paper's static placement [§2.2, §4.4]: where a
 * core is shared with another program, its server's strip holds up every
 * call.  Here each strip is claimed in CLAIMS chunks, its owner
 * first; a server that has run its own strip takes the chunks left in the
 * others', so a server taken off its core holds back one chunk, not its
 * strip.  Between calls of the same loop (the same body and range) the
 * strips' ends move toward what each server ran, smoothed over calls
 * (FI_ADAPT_SMOOTHING) and only by more than 1/FI_ADAPT_HYSTERESIS of an
 * even share, so that noise moves nothing and, in the steady state, each
 * server runs its own strip, the same iterations every call, and takes
 * nothing.  No clock is read: what a server ran says how fast it was.
 *
 * Only with F_ADAPT_ALL: the claims and the counts cost an empty loop at
 * 2 servers some four more cache-line transfers on its critical path
 * (bench/epcc on a 2-core Xeon VM: 1.1 us a call against 0.43 with even
 * strips, libgomp 0.73), which a loop of fine grain does not earn back.
 *
 * A claim word per strip holds the call's number above the chunks claimed
 * so far: a word that shows an earlier call stands for a strip of which
 * nothing is claimed, so the main thread resets no word between calls
 * (it would have to take each word's line from the server that last
 * wrote it).  The placements of the last NLOOPS loops are remembered, one
 * per slot of a table indexed by the loop's body and range.
 */
#include <string.h>

#include "memory.h"
#include "state.h"
#include "strips.h"

enum {
    NLOOPS = 16,    /* loops remembered */
    CLAIMS = 8,     /* chunks per strip: a late server holds back an eighth of its strip */
    CHUNK_BITS = 8, /* a claim word's chunk count, below the call's number */
};
_Static_assert(CLAIMS < (1 << CHUNK_BITS), "CLAIMS");

/* A loop's placement: strip s is [begin + bound[s], begin + bound[s + 1]). */
struct placement {
    f_loop_func body; /* NULL: a free slot */
    long begin;
    unsigned long n;
    unsigned long *bound; /* nservers + 1 */
    double *share;        /* the iterations each server is worth in a call, smoothed */
};

/* Strip s's claim word, and server s's count of what it ran: each on a
 * line of its own, since every server writes the words and each server
 * its count. */
struct claim {
    _Alignas(FI_CACHE_LINE) volatile AO_t word;
};
struct ran {
    _Alignas(FI_CACHE_LINE) unsigned long iterations;
};

static struct {
    int nservers;
    struct placement loops[NLOOPS];
    unsigned long *bounds; /* every slot's bound[], in one block */
    double *shares;
    struct claim *claims;
    struct ran *ran;
    /* The call under way: its placement and number (main thread, between calls). */
    struct placement *now;
    unsigned long call;
} st;

int fi_strips_adaptive(void)
{
    return fi_lib.adapt == F_ADAPT_ALL && !fi_lib.adapt_off && st.nservers > 1;
}

/* Even strips: server s's begins at floor(s*n/p). */
static void even(struct placement *pl)
{
    unsigned long p = (unsigned long)st.nservers;
    for (unsigned long s = 0; s <= p; ++s)
        pl->bound[s] = fi_even_cut(pl->n, s, p);
    for (unsigned long s = 0; s < p; ++s)
        pl->share[s] = (double)(pl->bound[s + 1] - pl->bound[s]);
}

void fi_strips_begin(f_loop_func body, long begin, unsigned long n)
{
    unsigned long h = ((unsigned long)(size_t)body >> 4) ^ (unsigned long)begin * 31 ^ n * 131;
    struct placement *pl = &st.loops[h % NLOOPS];
    if (pl->body != body || pl->begin != begin || pl->n != n) {
        pl->body = body;
        pl->begin = begin;
        pl->n = n;
        even(pl);
    }
    st.now = pl;
    ++st.call;
}

/* The next chunk of strip s in this call, or -1 where all are claimed. */
static int claim(int s, unsigned long call)
{
    volatile AO_t *w = &st.claims[s].word;
    AO_t tag = (AO_t)call << CHUNK_BITS;
    AO_t v = AO_load(w);
    for (;;) {
        AO_t c = (v & ~(AO_t)((1 << CHUNK_BITS) - 1)) == tag ? v & ((1 << CHUNK_BITS) - 1) : 0;
        if (c >= CLAIMS)
            return -1;
        /* No ordering: the chunk's bounds came with the call's post. */
        if (AO_compare_and_swap(w, v, tag | (c + 1)))
            return (int)c;
        v = AO_load(w);
    }
}

/* Run chunk c of strip s; return its iterations. */
static unsigned long run_chunk(const struct placement *pl, int s, int c, f_loop_func body,
                               void *arg)
{
    unsigned long lo = pl->bound[s], len = pl->bound[s + 1] - lo;
    unsigned long from =
        lo + len / CLAIMS * (unsigned long)c + len % CLAIMS * (unsigned long)c / CLAIMS;
    unsigned long to =
        lo + len / CLAIMS * (unsigned long)(c + 1) + len % CLAIMS * (unsigned long)(c + 1) / CLAIMS;
    if (from < to)
        body((long)((unsigned long)pl->begin + from), (long)((unsigned long)pl->begin + to), arg);
    return to - from;
}

void fi_strips_run(int me, f_loop_func body, void *arg)
{
    const struct placement *pl = st.now;
    unsigned long call = st.call, ran = 0;
    int c;
    for (int k = 0; k < st.nservers; ++k) {
        int s = me + k < st.nservers ? me + k : me + k - st.nservers;
        while ((c = claim(s, call)) >= 0)
            ran += run_chunk(pl, s, c, body, arg);
    }
    st.ran[me].iterations = ran;
}

void fi_strips_end(void)
{
    struct placement *pl = st.now;
    int p = st.nservers;
    double total = 0.0;
    for (int s = 0; s < p; ++s) {
        pl->share[s] += ((double)st.ran[s].iterations - pl->share[s]) / FI_ADAPT_SMOOTHING;
        total += pl->share[s];
    }
    /* Each end toward its share's, where it moves by more than the noise. */
    double sum = 0.0, even_share = (double)pl->n / p;
    for (int s = 1; s < p; ++s) {
        sum += pl->share[s - 1];
        double want = total > 0.0 ? sum / total * (double)pl->n : (double)pl->bound[s];
        double moved = want - (double)pl->bound[s];
        if (fi_lib.adapt_force || moved > even_share / FI_ADAPT_HYSTERESIS ||
            -moved > even_share / FI_ADAPT_HYSTERESIS) {
            pl->bound[s] = want <= 0.0 ? 0 : want >= (double)pl->n ? pl->n : (unsigned long)want;
        }
    }
    /* An end that moved may have passed one that did not: in order again
     * (each within [0, n], so every strip is [bound[s], bound[s + 1])). */
    for (int s = 1; s < p; ++s)
        if (pl->bound[s] < pl->bound[s - 1])
            pl->bound[s] = pl->bound[s - 1];
}

static int strips_alloc(const struct fi_env *env)
{
    (void)env;
    int p = fi_lib.nservers;
    memset(&st, 0, sizeof st);
    st.nservers = p;
    st.bounds = fi_alloc((size_t)NLOOPS * (size_t)(p + 1) * sizeof *st.bounds);
    st.shares = fi_alloc((size_t)NLOOPS * (size_t)p * sizeof *st.shares);
    st.claims = fi_alloc_aligned((size_t)p * sizeof *st.claims);
    st.ran = fi_alloc_aligned((size_t)p * sizeof *st.ran);
    if (st.bounds == NULL || st.shares == NULL || st.claims == NULL || st.ran == NULL) {
        fi_free(st.bounds), fi_free(st.shares), fi_free(st.claims), fi_free(st.ran);
        memset(&st, 0, sizeof st);
        return F_ENOMEM;
    }
    for (int k = 0; k < NLOOPS; ++k) {
        st.loops[k].bound = st.bounds + (size_t)k * (size_t)(p + 1);
        st.loops[k].share = st.shares + (size_t)k * (size_t)p;
    }
    for (int s = 0; s < p; ++s)
        AO_store(&st.claims[s].word, 0);
    return F_OK;
}

static void strips_free(void)
{
    fi_free(st.bounds), fi_free(st.shares), fi_free(st.claims), fi_free(st.ran);
    memset(&st, 0, sizeof st);
}

const struct fi_mechanism fi_strips_mechanism = { .alloc = strips_alloc, .free = strips_free };
