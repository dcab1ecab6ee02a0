/*
 * server.c - the servers' threads [paper §2, §4]: started once by
 * f_initialize, stopped by f_finalize, and woken for each job in between
 * (f_parallel's run, f_create_per_server's creators).
 *
 * Between jobs the servers wait in fi_wait_until (spin, yield, sleep) for
 * run_gen to change.  fi_servers_each publishes a job by bumping run_gen
 * with a release, so everything the main thread created before is visible
 * to the servers; each server checks out when it is done, and the main
 * thread returns once all have, so no server touches the library's state
 * after it returns.  A loop's team (fi_servers_team_post, for loop.c) is
 * a lighter job: servers 1 .. n-1 only, while the main thread does server
 * 0's share itself, so that server 0's thread is never woken for it; the
 * members park in a waitset of their own (team_wait), so that a loop's
 * wake-up does not wake server 0 to no purpose.  A member's share comes
 * in parts: the member takes them from the front, and the main thread,
 * done with its own share, takes from the back those not yet taken, so a
 * member whose core is busy with another program (asleep, or not yet
 * scheduled when the call is posted) holds the call back by at most the
 * part it runs, where a join that waited for every member's check-out
 * took a time slice of the other program per call (nw 8192 at 2 servers
 * beside a busy loop: 1.7 s, 0.52 s for libgomp's passive team, 0.65 s at
 * 1 server); and a member that starts a little late still runs the rest
 * of its share, where taking whole shares left nw's server 1 with a tenth
 * of the work (a schedule trace on the loaded machine).  Server threads get FI_STACK_BYTES of stack, for
 * helper-join recursion.  What a job or a thread's start means to each
 * mechanism is the caller's (lifecycle.c): this file knows none of them.
 */
#define _GNU_SOURCE  /* sched_getaffinity, pthread_attr_setaffinity_np (FILAMENTS_BIND) */
#include <sched.h>
#include <unistd.h>

#include "server.h"
#include "state.h"
#include "wait.h"

/* Each server's thread, at its start and its end (fi_servers_start). */
static void (*open_server)(struct fi_server *me, int open);

struct run_wait {
    AO_t gen, team_gen;
    int team;  /* a member of loops' teams: not server 0 */
};

static int run_posted(void *ctx)
{
    const struct run_wait *w = ctx;
    /* Acquire: pairs with the release that posted the run.  The loop's
     * post and the shutdown are acquired once the wait is over (team_job,
     * server_main): their polls need no acquire of their own. */
    return AO_load_acquire(&fi_lib.run_gen) != w->gen ||
           (w->team && AO_load(&fi_lib.team_gen) != w->team_gen) ||
           AO_load(&fi_lib.shutdown);
}

/*
 * A share word: the call's number g, a bit set once the member is done with
 * the parts it took, the parts it took (from the front) and those the main
 * thread took (from the back).  A word whose number is below g is a share
 * of call g that nobody has touched yet; every call fills every share
 * before it returns, so a member that wakes after later calls were posted
 * finds the ones it missed full, or numbered above its own.
 */
enum { PART_BITS = 8, FRONT_ONE = 1 << PART_BITS, DONE = 1 << (2 * PART_BITS),
       GEN_SHIFT = 2 * PART_BITS + 1 };
_Static_assert(FI_TEAM_PARTS < 1 << PART_BITS, "FI_TEAM_PARTS");

static unsigned front(AO_t share)
{
    return (unsigned)(share >> PART_BITS) & ((1U << PART_BITS) - 1);
}

static unsigned back(AO_t share)
{
    return (unsigned)share & ((1U << PART_BITS) - 1);
}

/* team_gen: the call's number above its parts, in one word, so that a
 * member reads the two of one call: a late member that read the number
 * and then the parts of a later call would take a part of a call over. */
static AO_t call_of(AO_t team_gen)
{
    return team_gen >> PART_BITS;
}

static unsigned parts_of(AO_t team_gen)
{
    return (unsigned)team_gen & ((1U << PART_BITS) - 1);
}

/* The next part of share *w in call g of `parts`, taken by adding `one` to
 * its word (FRONT_ONE: the member's; 1: the main thread's), or -1 where
 * all are taken or g is over. */
static int take_part(volatile AO_t *w, AO_t g, unsigned parts, AO_t one)
{
    for (;;) {
        AO_t share = AO_load(w);
        AO_t now = share >> GEN_SHIFT == g ? share : g << GEN_SHIFT;
        unsigned f = front(now), b = back(now);
        if (share >> GEN_SHIFT > g || f + b >= parts)
            return -1;
        /* No ordering: the part's bounds came with the post. */
        if (AO_compare_and_swap(w, share, now + one))
            return (int)(one == FRONT_ONE ? f : parts - 1 - b);
    }
}

/* A loop's team member: the parts of its share of the latest call g that
 * it can take, then its check-out if it took any.  While it runs one, the
 * main thread waits for it in call g, so `current` (loop.c) stays call g's. */
static void team_job(struct fi_server *me, struct run_wait *w)
{
    /* Acquire: the job and the loop of the call numbered so; pairs with
     * the post's release. */
    w->team_gen = AO_load_acquire(&fi_lib.team_gen);
    AO_t g = call_of(w->team_gen);
    unsigned parts = parts_of(w->team_gen);
    int part, took = 0;
    while ((part = take_part(&me->team_share, g, parts, FRONT_ONE)) >= 0) {
        fi_lib.team_job(me, (unsigned)part);
        took = 1;
    }
    if (!took)
        return;
    /* Full, so nobody else writes the word in call g.  Release: the parts
     * run before the main thread returns from the loop; pairs with
     * team_checked_out. */
    AO_store_release(&me->team_share, AO_load(&me->team_share) | DONE);
    fi_wake_all(&fi_lib.main_wait);
}

static void *server_main(void *arg)
{
    struct fi_server *me = arg;
    fi_self = me;
    f_self_slot_ = (size_t)me->index * FI_CACHE_LINE;
    struct run_wait w = { .gen = 0, .team_gen = 0, .team = me->index > 0 };
    struct fi_waitset *parked = w.team ? &fi_lib.team_wait : &fi_lib.servers_wait;
    /* Between runs the main thread needs a core to post the next one; the
     * members of a loop's team leave it the core of server 0, which the
     * main thread stands in for, unless the servers outnumber the cores. */
    int cede = w.team ? fi_lib.oversubscribed : fi_lib.servers_fill_cores;
    open_server(me, 1);
    /* Release: what open moved into this thread (the deque, deque.c),
     * before the main thread forks into it; pairs with all_started. */
    if (AO_fetch_and_add1_release(&fi_lib.started) == (AO_t)fi_lib.nservers - 1)
        fi_wake_all(&fi_lib.main_wait);
    for (;;) {
        fi_wait_until(parked, run_posted, &w, cede, FI_PARK_YIELD_NS, NULL);
        /* Acquire: what the main thread wrote before the stop; pairs with
         * stop_threads. */
        if (AO_load_acquire(&fi_lib.shutdown)) {
            open_server(me, 0);    /* what it moved outlives the thread */
            return NULL;
        }
        /* A loop's team is posted only between runs and joined before the
         * next run is posted: at most one of the two words has moved. */
        if (w.team && AO_load(&fi_lib.team_gen) != w.team_gen) {
            team_job(me, &w);
            continue;
        }
        w.gen = AO_load(&fi_lib.run_gen);
        fi_lib.job(me);    /* published with run_gen */
        /* Release: this server's writes (results, statistics) before the
         * main thread returns from f_parallel; pairs with all_checked_out. */
        if (AO_fetch_and_add1_release(&fi_lib.checked_out) == (AO_t)fi_lib.nservers - 1)
            fi_wake_all(&fi_lib.main_wait);
    }
}

static void stop_threads(int n)
{
    AO_store_release(&fi_lib.shutdown, 1);
    fi_wake_all(&fi_lib.servers_wait);
    fi_wake_all(&fi_lib.team_wait);
    for (int k = 0; k < n; ++k)
        pthread_join(fi_lib.servers[k].thread, NULL);
}

#ifdef HAVE_PTHREAD_ATTR_SETAFFINITY_NP
/*
 * FILAMENTS_BIND=1: server k runs on the (k mod n)-th of the n CPUs that
 * the calling thread may run on.  A server then keeps its core's caches
 * (its rows of an iterative phase stay where the last pass left them), and
 * two servers never share a core while another core idles: the OS places a
 * woken thread near its waker and may leave two on one core for several
 * ticks, during which every barrier waits for the time slice.
 */
typedef cpu_set_t fi_cpus;

/* The CPUs the caller may run on, and how many. */
static int allowed_cpus(fi_cpus *allowed)
{
    return sched_getaffinity(0, sizeof *allowed, allowed) == 0 ? CPU_COUNT(allowed) : F_EINVAL;
}

/* Bind server k; it alone has its CPU where the servers are no more than
 * the CPUs (handoff.c trades those). */
static int bind_next(pthread_attr_t *attr, int k, const fi_cpus *allowed)
{
    cpu_set_t one;
    int nth = k % CPU_COUNT(allowed);
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
        if (CPU_ISSET(cpu, allowed) && nth-- == 0) {
            CPU_ZERO(&one);
            CPU_SET(cpu, &one);
            if (fi_lib.nservers <= CPU_COUNT(allowed))
                fi_lib.servers[k].cpu = cpu;
            return pthread_attr_setaffinity_np(attr, sizeof one, &one) == 0 ? F_OK : F_EINVAL;
        }
    return F_EINVAL;
}
#else
typedef int fi_cpus;

static int allowed_cpus(fi_cpus *allowed)
{
    (void)allowed;
    return F_EINVAL;  /* env.c refuses FILAMENTS_BIND=1 here */
}

static int bind_next(pthread_attr_t *attr, int k, const fi_cpus *allowed)
{
    (void)attr, (void)k, (void)allowed;
    return F_EINVAL;
}
#endif

static int all_started(void *ctx)
{
    return AO_load_acquire(&fi_lib.started) == (AO_t)fi_lib.nservers;
}

/*
 * Whether to bind the servers (FILAMENTS_BIND), and the CPUs to bind them
 * to.  Unset, the servers are bound where they are exactly as many as the
 * CPUs the caller may run on: a program that takes every core it has loses
 * most to servers sharing a core, and has no core to leave to another
 * thread anyway; with CPUs to spare the OS finds idle ones (doc/design.md,
 * "Waiting", has the figures).
 */
static int choose_binding(int setting, fi_cpus *allowed, int *bind)
{
    *bind = 0;
    if (setting == 0)
        return F_OK;
    int ncpus = allowed_cpus(allowed);
    if (ncpus < 0)
        return setting == 1 ? F_EINVAL : F_OK;
    *bind = setting == 1 || ncpus == fi_lib.nservers;
    return F_OK;
}

int fi_servers_start(int bind_setting, void (*open)(struct fi_server *me, int open))
{
    open_server = open;
    AO_store(&fi_lib.run_gen, 0);
    AO_store(&fi_lib.shutdown, 0);
    AO_store(&fi_lib.started, 0);
    AO_store(&fi_lib.checked_out, 0);
    AO_store(&fi_lib.team_gen, 0);
    pthread_attr_t attr;
    if (pthread_attr_init(&attr) != 0)
        return F_ENOMEM;
    int rc = pthread_attr_setstacksize(&attr, FI_STACK_BYTES) == 0 ? F_OK : F_ENOMEM;
    fi_cpus allowed;  /* the CPUs the servers are bound to, read once */
    int bind = 0;
    if (rc == F_OK)
        rc = choose_binding(bind_setting, &allowed, &bind);
    int k = 0;
    for (; rc == F_OK && k < fi_lib.nservers; ++k) {
        fi_lib.servers[k].cpu = -1;
        AO_store(&fi_lib.servers[k].team_share, 0);
        if (bind && (rc = bind_next(&attr, k, &allowed)) < 0)
            break;
        if (pthread_create(&fi_lib.servers[k].thread, &attr, server_main, &fi_lib.servers[k])) {
            rc = F_ENOMEM;
            break;
        }
    }
    pthread_attr_destroy(&attr);
    if (rc < 0)
        stop_threads(k);    /* the k started */
    else
        fi_wait_until(&fi_lib.main_wait, all_started, NULL, fi_lib.servers_fill_cores,
                      FI_PARK_YIELD_NS, NULL);
    return rc;
}

void fi_servers_stop(void)
{
    stop_threads(fi_lib.nservers);
}

static int all_checked_out(void *ctx)
{
    return AO_load_acquire(&fi_lib.checked_out) == (AO_t)fi_lib.nservers;
}

void fi_servers_each(void (*job)(struct fi_server *me))
{
    fi_lib.job = job;
    AO_store(&fi_lib.checked_out, 0);
    /* Release: the job, and every filament, phase and argument created so
     * far, before the servers see it; pairs with run_posted. */
    AO_store_release(&fi_lib.run_gen, AO_load(&fi_lib.run_gen) + 1);
    fi_wake_all(&fi_lib.servers_wait);
    fi_wake_all(&fi_lib.team_wait);
    fi_wait_until(&fi_lib.main_wait, all_checked_out, NULL, fi_lib.servers_fill_cores,
                  FI_PARK_YIELD_NS, NULL);
}

void fi_servers_team_post(void (*job)(struct fi_server *member, unsigned part), unsigned parts)
{
    fi_lib.team_job = job;
    /* Release: the job and the loop it runs before the members see it;
     * pairs with run_posted and team_job. */
    AO_t call = call_of(AO_load(&fi_lib.team_gen)) + 1;
    AO_store_release(&fi_lib.team_gen, call << PART_BITS | parts);
    fi_wake_all(&fi_lib.team_wait);
}

/* Every member of the call has taken none of its parts, or is done. */
static int team_checked_out(void *ctx)
{
    for (int s = 1; s < fi_lib.nservers; ++s) {
        AO_t share = AO_load_acquire(&fi_lib.servers[s].team_share);
        if (front(share) != 0 && !(share & DONE))
            return 0;
    }
    return 1;
}

void fi_servers_team_join(void)
{
    AO_t team_gen = AO_load(&fi_lib.team_gen), g = call_of(team_gen);
    unsigned parts = parts_of(team_gen);
    int part;
    for (int s = 1; s < fi_lib.nservers; ++s) {
        struct fi_server *member = &fi_lib.servers[s];
        while ((part = take_part(&member->team_share, g, parts, 1)) >= 0)
            fi_lib.team_job(member, (unsigned)part);
    }
    /* The main thread and the members are no more threads than servers. */
    fi_wait_until(&fi_lib.main_wait, team_checked_out, NULL, fi_lib.oversubscribed,
                  FI_PARK_YIELD_NS, NULL);
}
