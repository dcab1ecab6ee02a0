/*
 * stress.c - randomized programs that mix the three kinds of filaments
 * [paper §2], each checked against a sequential evaluation (stress.h).
 *
 * A program is a function of its seed alone.  Every random choice is a hash
 * of the seed and of the id of the filament or fork-tree node that makes
 * it, so the parallel run and the sequential evaluation make the same
 * choices whatever the schedule.  Values combine by wrap-around unsigned
 * addition, which does not depend on the order: a filament that runs twice,
 * or never, changes a sum and a count.
 *
 * The program of a seed: 1 to 8 servers and a pruning threshold (auto,
 * never, or small), then 1 to 4 runs of f_parallel.  Each run mixes, by
 * the seed's choice, fork/join roots (random trees of random depth and
 * fan-out, forked with untyped f_fork or f_fork_seq, joined once or twice
 * per node), run-to-completion filaments on named servers or F_ANY that
 * create more of themselves and fork trees of their own, and up to three
 * iterative phases of random size (runs of consecutive j and single
 * filaments) for 1 to 4 rounds, some of whose filaments fork trees on
 * every pass.  Each barrier's code checks its phase's totals so far, so an
 * early exit from a barrier shows where it happens.
 *
 * Only the untyped forks are used: typed forks are tested on their own.
 * One program at a time: the state below is global, written by the main
 * thread between runs and by barrier code, read by filaments.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <filaments.h>

#include "stress.h"

enum { MAX_FAN = 3, MAX_ROOTS = 8, MAX_PHASES = 3, MAX_ROUNDS = 4, MAX_SERVERS = 8 };

/* ------------------------------------------------------- random choices */

static unsigned long seed_;

/* splitmix64's finalizer: every bit of x reaches every bit of the result. */
static unsigned long mix(unsigned long x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9UL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebUL;
    x ^= x >> 31;
    return x;
}

/* The choice number `what` of the thing called `id` in this seed's program. */
static unsigned long pick(unsigned long id, unsigned long what)
{
    return mix(seed_ ^ mix(id * 0x9e3779b97f4a7c15UL + what));
}

/* Ids travel as the `long i` of a filament: keep them non-negative. */
static long child_id(unsigned long id, unsigned long k)
{
    return (long)(mix(id * 31 + k + 1) >> 2);
}

/* ------------------------------------------------------------- failures */

static atomic_int failed_;
static atomic_flag fail_taken_ = ATOMIC_FLAG_INIT;
static char fail_what_[200];

/* From any filament or from main: keep the first failure's text. */
static void fail(const char *what, unsigned long id)
{
    if (!atomic_flag_test_and_set(&fail_taken_))
        snprintf(fail_what_, sizeof fail_what_, "%s (id %lu)", what, id);
    atomic_store(&failed_, 1);
}

/* A little work, so that servers interleave differently from seed to seed. */
static void spin(unsigned long units)
{
    volatile unsigned long x = units;
    for (unsigned long k = 0; k < units; ++k)
        x = x * 6364136223846793005UL + 1;
}

/* ------------------------------------------------------ fork/join trees */

static atomic_ulong nodes_run;  /* tree nodes run, whatever forked them */

static int tree_fan(unsigned long id, long depth)
{
    unsigned long r = pick(id, 1);
    return depth <= 0 || r % 4 == 0 ? 0 : 1 + (int)(r / 4 % MAX_FAN);
}

/* The sequential evaluation: the subtree's value; its nodes add to *count. */
static unsigned long tree_value(unsigned long id, long depth, unsigned long *count)
{
    unsigned long sum = pick(id, 3);
    int fan = tree_fan(id, depth);
    for (int k = 0; k < fan; ++k)
        sum += tree_value((unsigned long)child_id(id, (unsigned long)k), depth - 1, count);
    ++*count;
    return sum;
}

/* The sequential version that f_fork_seq calls where the library prunes. */
static void tree_seq(long id, long depth, void *arg)
{
    unsigned long count = 0;
    *(unsigned long *)arg = tree_value((unsigned long)id, depth, &count);
    atomic_fetch_add(&nodes_run, count);
}

/* A node: fork the children (joining once after the first `split` of them
 * when split > 0), join, and leave the subtree's value in *arg. */
static void tree(long id, long depth, void *arg)
{
    unsigned long uid = (unsigned long)id, v[MAX_FAN] = { 0 }, r = pick(uid, 2);
    int fan = tree_fan(uid, depth), split = fan > 1 ? (int)(r % (unsigned long)fan) : 0;
    for (int k = 0; k < fan; ++k) {
        if (k == split && split > 0 && f_join() != F_OK)
            fail("f_join in a tree node", uid);
        long c = child_id(uid, (unsigned long)k);
        int rc = pick((unsigned long)c, 4) % 4 == 0 ? f_fork_seq(tree, tree_seq, c, depth - 1, &v[k])
                                                    : f_fork(tree, c, depth - 1, &v[k]);
        if (rc != F_OK)
            fail("f_fork in a tree node", uid);
    }
    if (r & 64)
        spin(r % 256);
    if (f_join() != F_OK)
        fail("f_join in a tree node", uid);
    unsigned long sum = pick(uid, 3);
    for (int k = 0; k < fan; ++k)
        sum += v[k];
    *(unsigned long *)arg = sum;
    atomic_fetch_add(&nodes_run, 1);
}

/* A tree forked from inside a filament of another kind, and joined there. */
static unsigned long nested_tree(unsigned long owner, unsigned long *count)
{
    long root = child_id(owner, 99), depth = (long)(pick(owner, 10) % 5);
    if (count != NULL)
        return tree_value((unsigned long)root, depth, count);
    unsigned long v = 0;
    if (f_fork(tree, root, depth, &v) != F_OK || f_join() != F_OK)
        fail("nested fork/join", owner);
    return v;
}

/* ----------------------------------------------------- run to completion */

static int nservers_;
static int server_of_[MAX_SERVERS + 1];  /* [s + 1] = s: where a filament must run */
static atomic_ulong rtc_sum, rtc_count;

static int rtc_server(unsigned long id)
{
    return (int)(pick(id, 7) % (unsigned long)(nservers_ + 1)) - 1;  /* F_ANY .. n-1 */
}

/* Sequential: the value of filament id and of those it creates. */
static unsigned long rtc_value(unsigned long id, long depth, unsigned long *count,
                               unsigned long *nodes)
{
    unsigned long r = pick(id, 5), sum = pick(id, 6);
    int kids = depth > 0 ? (int)(r % 4) : 0;
    for (int k = 0; k < kids; ++k)
        sum += rtc_value((unsigned long)child_id(id, (unsigned long)k), depth - 1, count, nodes);
    if (r & 8)
        sum += nested_tree(id, nodes);
    ++*count;
    return sum;
}

/* arg = &server_of_[s + 1] where s is the server it was created for. */
static void rtc(long id, long depth, void *arg)
{
    unsigned long uid = (unsigned long)id, r = pick(uid, 5), v = pick(uid, 6);
    int want = *(const int *)arg;
    if (want != F_ANY && f_my_server() != want)
        fail("an RTC filament ran on another server than the one it was given", uid);
    int kids = depth > 0 ? (int)(r % 4) : 0;
    for (int k = 0; k < kids; ++k) {
        long c = child_id(uid, (unsigned long)k);
        int s = rtc_server((unsigned long)c);
        if (f_rtc_thread(s, rtc, c, depth - 1, &server_of_[s + 1]) != F_OK)
            fail("f_rtc_thread from a filament", uid);
    }
    if (r & 8)
        v += nested_tree(uid, NULL);
    atomic_fetch_add(&rtc_sum, v);
    atomic_fetch_add(&rtc_count, 1);
}

/* ------------------------------------------------------ iterative phases */

struct phase {
    int index, last;
    atomic_ulong sum, count;
    unsigned long want_sum[MAX_ROUNDS], want_count[MAX_ROUNDS];  /* cumulative, per round */
};

static struct phase phases_[MAX_PHASES];
static int nphases_, rounds_;
static unsigned long round_;  /* written by the last phase's barrier code only */

static unsigned long iter_id(long i, long j, const struct phase *ph)
{
    return mix((unsigned long)i * 1000003UL + (unsigned long)j * 7919UL + (unsigned long)ph->index);
}

/* One pass of an iterative filament in round `round`; count: sequential. */
static unsigned long iter_value(unsigned long id, unsigned long round, unsigned long *nodes)
{
    unsigned long v = pick(id ^ round, 8);
    if (pick(id, 9) % 8 == 0)
        v += nested_tree(id ^ (round << 40), nodes);
    return v;
}

static void iter(long i, long j, void *arg)
{
    struct phase *ph = arg;
    unsigned long id = iter_id(i, j, ph);
    atomic_fetch_add(&ph->sum, iter_value(id, round_, NULL));
    atomic_fetch_add(&ph->count, 1);
}

/* Barrier code: the phase's totals after this round's pass. */
static int iter_barrier(void *arg)
{
    struct phase *ph = arg;
    if (atomic_load(&ph->count) != ph->want_count[round_] ||
        atomic_load(&ph->sum) != ph->want_sum[round_])
        fail("a phase's totals at its barrier", (unsigned long)ph->index);
    if (!ph->last)
        return F_NOTDONE;
    return ++round_ == (unsigned long)rounds_ ? F_DONE : F_NOTDONE;
}

/* Create phase p's filaments (per server and F_ANY: up to 3 runs of 1 to
 * 10 consecutive j) and fill in its expected totals, sequentially. */
static int make_phase(unsigned long run_id, int p, unsigned long *nodes)
{
    struct phase *ph = &phases_[p];
    ph->index = p;
    ph->last = p == nphases_ - 1;
    atomic_store(&ph->sum, 0);
    atomic_store(&ph->count, 0);
    if (f_new_barrier(iter_barrier, ph) < 0)
        return -1;
    unsigned long ids[(MAX_SERVERS + 1) * 3 * 10], n = 0;
    for (int s = -1; s < nservers_; ++s) {
        unsigned long r = pick(run_id * 16 + (unsigned long)p, 20 + (unsigned long)s);
        long groups = (long)(r % 4), i0 = (long)(r >> 8 & 0xffff);
        for (long g = 0; g < groups; ++g) {
            long len = 1 + (long)(pick(r, (unsigned long)g) % 10);  /* a run of len points */
            for (long j = 0; j < len; ++j) {
                if (f_iterative_thread(s, iter, i0 + g, j, ph) != F_OK)
                    return -1;
                ids[n++] = iter_id(i0 + g, j, ph);
            }
        }
    }
    unsigned long sum = 0, count = 0;
    for (int round = 0; round < rounds_; ++round) {
        for (unsigned long k = 0; k < n; ++k)
            sum += iter_value(ids[k], (unsigned long)round, nodes);
        count += n;
        ph->want_sum[round] = sum;
        ph->want_count[round] = count;
    }
    return 0;
}

/* ------------------------------------------------------------- programs */

int stress_servers(unsigned long seed)
{
    return 1 + (int)(mix(seed * 2 + 1) % MAX_SERVERS);
}

/* Compare a result with its sequential value; 0 if equal. */
static int differs(const char *what, unsigned long got, unsigned long want, int run, char *why,
                   size_t len)
{
    if (got == want)
        return 0;
    snprintf(why, len, "run %d: %s: %lu, sequentially %lu", run, what, got, want);
    return -1;
}

/* One run of f_parallel: create, run, compare.  0 or -1 with why. */
static int one_run(int run, char *why, size_t len)
{
    unsigned long run_id = (unsigned long)run + 1, mask = pick(run_id, 30) % 7 + 1;
    unsigned long want_nodes = 0, want_rtc_sum = 0, want_rtc_count = 0;
    unsigned long roots[MAX_ROOTS], want_roots[MAX_ROOTS];
    int nroots = mask & 1 ? (int)(pick(run_id, 31) % (MAX_ROOTS + 1)) : 0;

    atomic_store(&nodes_run, 0);
    atomic_store(&rtc_sum, 0);
    atomic_store(&rtc_count, 0);
    for (int k = 0; k < nroots; ++k) {
        long id = child_id(run_id, 100 + (unsigned long)k), depth = (long)(pick((unsigned long)id, 32) % 10);
        roots[k] = 0;
        want_roots[k] = tree_value((unsigned long)id, depth, &want_nodes);
        if (f_fork(tree, id, depth, &roots[k]) != F_OK)
            return snprintf(why, len, "run %d: f_fork of root %d failed", run, k), -1;
    }
    if (mask & 2) {
        int nrtc = (int)(pick(run_id, 33) % (unsigned long)(8 * nservers_ + 1));
        for (int k = 0; k < nrtc; ++k) {
            long id = child_id(run_id, 200 + (unsigned long)k), depth = (long)(pick((unsigned long)id, 34) % 4);
            int s = rtc_server((unsigned long)id);
            want_rtc_sum += rtc_value((unsigned long)id, depth, &want_rtc_count, &want_nodes);
            if (f_rtc_thread(s, rtc, id, depth, &server_of_[s + 1]) != F_OK)
                return snprintf(why, len, "run %d: f_rtc_thread %d failed", run, k), -1;
        }
    }
    nphases_ = mask & 4 ? 1 + (int)(pick(run_id, 35) % MAX_PHASES) : 0;
    rounds_ = 1 + (int)(pick(run_id, 36) % MAX_ROUNDS);
    round_ = 0;
    for (int p = 0; p < nphases_; ++p)
        if (make_phase(run_id, p, &want_nodes) < 0)
            return snprintf(why, len, "run %d: creating phase %d failed", run, p), -1;

    int rc = f_parallel();
    if (rc != F_OK)
        return snprintf(why, len, "run %d: f_parallel() = %d", run, rc), -1;
    if (atomic_load(&failed_))
        return snprintf(why, len, "run %d: %s", run, fail_what_), -1;
    for (int k = 0; k < nroots; ++k)
        if (differs("a root's tree value", roots[k], want_roots[k], run, why, len) < 0)
            return -1;
    for (int p = 0; p < nphases_; ++p) {
        struct phase *ph = &phases_[p];
        if (differs("a phase's pass count", atomic_load(&ph->count), ph->want_count[rounds_ - 1],
                    run, why, len) < 0 ||
            differs("a phase's sum", atomic_load(&ph->sum), ph->want_sum[rounds_ - 1], run, why,
                    len) < 0)
            return -1;
    }
    if (nphases_ > 0 && differs("rounds", round_, (unsigned long)rounds_, run, why, len) < 0)
        return -1;
    if (differs("RTC filaments run", atomic_load(&rtc_count), want_rtc_count, run, why, len) < 0 ||
        differs("the RTC filaments' sum", atomic_load(&rtc_sum), want_rtc_sum, run, why, len) < 0 ||
        differs("tree nodes run", atomic_load(&nodes_run), want_nodes, run, why, len) < 0)
        return -1;
    return 0;
}

int stress_run(unsigned long seed, char *why, size_t len)
{
    static const long prunes[] = { F_PRUNE_AUTO, F_PRUNE_AUTO, 0, 1, 4, 64 };
    seed_ = seed;
    nservers_ = stress_servers(seed);
    for (int s = -1; s < MAX_SERVERS; ++s)
        server_of_[s + 1] = s;
    atomic_store(&failed_, 0);
    atomic_flag_clear(&fail_taken_);
    int rc = f_initialize(nservers_);
    if (rc != F_OK)
        return snprintf(why, len, "f_initialize(%d) = %d", nservers_, rc), -1;
    f_set_prune(prunes[pick(0, 40) % (sizeof prunes / sizeof *prunes)]);
    int runs = 1 + (int)(pick(0, 41) % 4), status = 0;
    for (int run = 0; run < runs && status == 0; ++run)
        status = one_run(run, why, len);
    f_finalize();
    f_set_prune(F_PRUNE_AUTO);
    return status;
}
