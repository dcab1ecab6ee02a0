/*
 * wait.c - spin, back off, sleep (doc/design.md, "Waiting").
 *
 * Sleeping without a lost wake-up is a Dekker pair: the sleeper announces
 * itself (sleepers++), then re-checks ready(); the waker publishes, then
 * checks sleepers.  A full fence sits between the store and the load on
 * each side, so at least one of them sees the other.  The sleeper holds the
 * mutex from its announcement to pthread_cond_wait, and the waker takes the
 * mutex to broadcast, so a broadcast cannot fall between the re-check and
 * the wait.
 */
#include <sched.h>
#include <time.h>

#include "wait.h"
#include "trace.h"

int fi_waitset_init(struct fi_waitset *w)
{
    if (pthread_mutex_init(&w->mutex, NULL) != 0)
        return F_ENOMEM;
    if (pthread_cond_init(&w->cond, NULL) != 0) {
        pthread_mutex_destroy(&w->mutex);
        return F_ENOMEM;
    }
    AO_store(&w->sleepers, 0);
    return F_OK;
}

void fi_waitset_destroy(struct fi_waitset *w)
{
    pthread_cond_destroy(&w->cond);
    pthread_mutex_destroy(&w->mutex);
}

/*
 * The clock of the idle-time statistic.  The wait's end is read right after
 * the barrier's release, on the path of every episode, where the precise
 * clock (25 ns here) was a fifth of a 2-server barrier.  The coarse clock
 * costs 5 ns and ticks every few milliseconds: a wait counts the ticks it
 * spans, which over many waits adds up to their length on average.
 */
#ifdef CLOCK_MONOTONIC_COARSE
#define IDLE_CLOCK CLOCK_MONOTONIC_COARSE
#else
#define IDLE_CLOCK CLOCK_MONOTONIC
#endif

static unsigned long clock_ns(clockid_t id)
{
    struct timespec t;
    clock_gettime(id, &t);
    return (unsigned long)t.tv_sec * 1000000000UL + (unsigned long)t.tv_nsec;
}

unsigned long fi_idle_clock_ns(void)
{
    return clock_ns(IDLE_CLOCK);
}

unsigned long fi_clock_ns(void)
{
    return clock_ns(CLOCK_MONOTONIC);
}

/* Polls before a wait reads the idle clock (fi_wait_until). */
#define UNTIMED_POLLS 64

static void sleep_until(struct fi_waitset *w, fi_ready_fn ready, void *ctx)
{
    pthread_mutex_lock(&w->mutex);
    AO_fetch_and_add1(&w->sleepers);
    /* Full: our announcement before the re-check; pairs with fi_wake_all. */
    AO_nop_full();
    while (!ready(ctx))
        pthread_cond_wait(&w->cond, &w->mutex);
    AO_fetch_and_sub1(&w->sleepers);
    pthread_mutex_unlock(&w->mutex);
}

/*
 * Poll, then yield FI_YIELD_POLLS times and for yield_ns, whichever lasts
 * longer, then sleep.  The count is what keeps a crowd of waiters awake
 * where yields are slow, many servers to a core: with the time alone, 1024
 * servers on 2 cores slept at once and their wake-ups took an iterative
 * run of 200 passes from 4.1 s to 7.3 s.  The time is the caller's, since
 * a sleeper inside a run does not cost its wake-up alone.  Woken
 * late, it reaches the next barrier late, where the other servers now wait
 * long enough to sleep in turn, and so on for the rest of the run: Jacobi
 * 1024 on 2 servers took 0.43 s or, in about half the runs, up to 0.72 s
 * (1000 passes), with 100 us of yields before a sleep; 0.43 s in every run
 * with about 2 ms.  The fast path, a wait that ends within its first
 * UNTIMED_POLLS polls, reads no clock at all.
 */
void fi_wait_until(struct fi_waitset *w, fi_ready_fn ready, void *ctx, int cede,
                   unsigned long yield_ns, unsigned long *idle_ns)
{
    /* A waiter that must cede its core polls briefly, then yields no
     * longer than a parked one: the threads it waits for may be runnable
     * on this very core (Jacobi 1024, 8 servers on 2 cores, 11 interleaved
     * runs: 0.114 s with 2 ms of yields, 0.092 s with 100 us). */
    int spins = fi_wait_spins(cede);
    int k = 0;
    int ok = ready(ctx);
    /* The first polls go untimed: a wait that ends within them lasts a
     * few microseconds, far less than a tick of the idle clock, and the
     * clock read after it would sit on the critical path of every barrier
     * (the waiter's next pass starts after it). */
    for (; !ok && k < UNTIMED_POLLS && k < spins; ++k) {
        fi_cpu_relax();
        ok = ready(ctx);
    }
    if (ok)
        return;
    unsigned long start = idle_ns != NULL ? fi_idle_clock_ns() : 0;
    if (cede && yield_ns > FI_PARK_YIELD_NS)
        yield_ns = FI_PARK_YIELD_NS;
    for (; k < spins && !(ok = ready(ctx)); ++k)
        fi_cpu_relax();
    /* A thread that records a trace notes its yields and its sleep, the
     * waits that gave up the core (fi_trace_here: a traced run or call). */
    struct fi_trace_buf *trace = fi_trace_here;
    if (!ok) {
        unsigned long yields_from = fi_clock_ns(), yields_end = yields_from + yield_ns;
        for (int k = 1; !(ok = ready(ctx)); ++k) {
            sched_yield();
            if (k >= FI_YIELD_POLLS && fi_clock_ns() >= yields_end)
                break;
        }
        fi_trace_span(trace, FI_TRACE_YIELD, yields_from, 0, 0, 0, 0);
    }
    if (!ok) {
        unsigned long asleep_from = fi_trace_now(trace);
        sleep_until(w, ready, ctx);
        fi_trace_span(trace, FI_TRACE_SLEEP, asleep_from, 0, 0, 0, 0);
    }
    if (idle_ns != NULL)
        *idle_ns += fi_idle_clock_ns() - start;
}

void fi_wake_all(struct fi_waitset *w)
{
    /* Full: what the caller published before our look at sleepers. */
    AO_nop_full();
    if (AO_load(&w->sleepers) == 0)
        return;
    pthread_mutex_lock(&w->mutex);
    pthread_cond_broadcast(&w->cond);
    pthread_mutex_unlock(&w->mutex);
}
