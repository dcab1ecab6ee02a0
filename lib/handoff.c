/*
 * handoff.c - a server waiting at the barrier gives its core to a late
 * server that is off its own (beyond the paper; doc/design.md, "Handing
 * over a core").
 *
 * Adaptive placement (adapt.c) takes a late server's unstarted runs, but
 * not the claim it is running: a filament in progress has a stack and
 * cannot move.  Where the OS takes that server off its core for a time
 * slice (a busy neighbour: several milliseconds, many passes), every other
 * server runs out of work and waits at the barrier for it, and the machine
 * does a pass's work in the time of a slice.  The thread can move,
 * though.  Where each server is bound to a CPU of its own (FILAMENTS_BIND,
 * server.c), a server that has arrived and waits watches one that has
 * not: if the late server's CPU time has grown by less than
 * 1/FI_HANDOFF_SHARE of FI_HANDOFF_NS over that long, it is off its core,
 * and if it is runnable (Linux's /proc status; where there is none, it is
 * taken to be), it waits for a core, not for an event: the waiter binds it
 * to its own core and itself to the late one's.  The late server runs at once where the
 * waiter was, and the waiter, which has nothing to run before the
 * barrier, queues behind the neighbour in its place.
 *
 * Only the servers' CPUs change: the filaments, the strips and every
 * per-server slot stay with their servers, so a program cannot tell.  One
 * trade at a time (a lock; a waiter that finds it taken watches on), and
 * each server's cpu is read and written under it.  On, for a run, where
 * the servers are bound one to a CPU and adaptive placement is
 * (f_set_adaptive(3); FILAMENTS_ADAPT=none turns both off).
 */
#define _GNU_SOURCE  /* pthread_setaffinity_np */
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "handoff.h"
#include "state.h"
#include "trace.h"
#include "wait.h"

#if defined(HAVE_PTHREAD_SETAFFINITY_NP) && defined(HAVE_PTHREAD_GETCPUCLOCKID)
static pthread_mutex_t trading = PTHREAD_MUTEX_INITIALIZER;

static int arrived(const struct fi_server *s, AO_t round)
{
    return AO_load(&s->barrier_round) >= round;
}

/* Server s's CPU time so far. */
static unsigned long cpu_time_ns(const struct fi_server *s)
{
    struct timespec t;
    if (clock_gettime(s->cpu_clock, &t) != 0)
        return (unsigned long)-1;  /* as if it ran all along: no trade */
    return (unsigned long)t.tv_sec * 1000000000UL + (unsigned long)t.tv_nsec;
}

/* Whether server s is runnable: "R" in its status file, or no file to
 * read.  One that sleeps (between runs, in a lock, in the program's own
 * calls) needs no core. */
static int runnable(const struct fi_server *s)
{
    char line[96];  /* "tid (name) S ...": the name has at most 15 bytes */
    if (s->status_fd < 0)
        return 1;
    ssize_t n = pread(s->status_fd, line, sizeof line - 1, 0);
    if (n <= 0)
        return 1;
    line[n] = '\0';
    const char *end = strrchr(line, ')');
    return end == NULL || end[1] == '\0' || end[2] == 'R';
}

static int bind_to(pthread_t thread, int cpu)
{
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    return pthread_setaffinity_np(thread, sizeof one, &one);
}

/* Give me's CPU to `late` and take its own; nothing changes where either
 * move fails. */
static void trade(struct fi_server *me, struct fi_server *late, unsigned long now)
{
    if (pthread_mutex_trylock(&trading) != 0)
        return;
    int mine = me->cpu, theirs = late->cpu;
    if (bind_to(late->thread, mine) == 0) {
        if (bind_to(pthread_self(), theirs) == 0) {
            me->cpu = theirs;
            late->cpu = mine;
            AO_fetch_and_add1(&fi_lib.handoffs);
            if (FI_UNLIKELY(me->trace != NULL))
                fi_trace_add(me->trace, FI_TRACE_HANDOFF, now, now, late->index, theirs, mine,
                             0);
        } else {
            bind_to(late->thread, theirs);
        }
    }
    pthread_mutex_unlock(&trading);
}

static int open_status(void)
{
#ifdef __linux__
    return open("/proc/thread-self/stat", O_RDONLY | O_CLOEXEC);
#else
    return -1;
#endif
}

/* Start watching the first server after the one watched last that has not
 * arrived, if any. */
static void watch_next(const struct fi_server *me, AO_t round, struct fi_handoff_watch *w,
                       unsigned long now, int after)
{
    const int n = fi_lib.nservers;
    w->late = -1;
    for (int k = 1; k <= n; ++k) {
        const struct fi_server *s = &fi_lib.servers[(after + k) % n];
        if (s != me && !arrived(s, round)) {
            *w = (struct fi_handoff_watch){ s->index, now, cpu_time_ns(s) };
            return;
        }
    }
}

/*
 * A watch begins only once the waiter has waited FI_HANDOFF_NS by the
 * monotonic clock (vDSO, a few tens of nanoseconds): a late server's CPU
 * clock is a system call, and a waiter inside one when the release comes
 * leaves the barrier that much later.  Most waits end sooner: the barrier
 * pass at 2 servers, whose waits all read it, went from 1.75 to 3.2 times
 * a spin barrier of two pthreads.  Detection then takes 2 FI_HANDOFF_NS,
 * still far within the time slice that it is for.
 */
void fi_handoff_look(struct fi_server *me, AO_t round, struct fi_handoff_watch *w)
{
    unsigned long now = fi_clock_ns();
    if (w->since == 0) {
        w->since = now;
        return;
    }
    unsigned long watched = now - w->since;
    if (watched < FI_HANDOFF_NS)
        return;
    if (w->late < 0) {
        watch_next(me, round, w, now, me->index);
        return;
    }
    struct fi_server *late = &fi_lib.servers[w->late];
    if (!arrived(late, round) && cpu_time_ns(late) - w->cpu_ns < watched / FI_HANDOFF_SHARE &&
        runnable(late))
        trade(me, late, now);
    watch_next(me, round, w, now, w->late);
}

/* On each server's thread: the clock of its CPU time and its status file,
 * for the watchers; the file is closed as the thread ends. */
static void open_server(struct fi_server *me, int open)
{
    if (!open) {
        if (me->status_fd >= 0)
            close(me->status_fd);
        return;
    }
    if (pthread_getcpuclockid(pthread_self(), &me->cpu_clock) != 0)
        me->cpu = -1;  /* unwatchable: never traded */
    me->status_fd = open_status();
}

/* Every server watchable and bound to a CPU of its own, and adaptive
 * placement not turned off. */
static void begin_run(void)
{
    int own = fi_lib.nservers > 1;
    for (int s = 0; s < fi_lib.nservers; ++s)
        own &= fi_lib.servers[s].cpu >= 0;
    fi_lib.handoff = own && fi_lib.adapt != F_ADAPT_NONE && !fi_lib.adapt_off;
}
#else
void fi_handoff_look(struct fi_server *me, AO_t round, struct fi_handoff_watch *w)
{
    (void)me, (void)round, (void)w;
}

static void open_server(struct fi_server *me, int open)
{
    (void)me, (void)open;
}

static void begin_run(void)
{
    fi_lib.handoff = 0;  /* nothing to trade with */
}
#endif

const struct fi_mechanism fi_handoff_mechanism = { .open = open_server, .begin_run = begin_run };
