/*
 * server.c - the servers and their life cycle [paper §2, §4].
 *
 * f_initialize starts one pthread per server, once; between runs they wait
 * in fi_wait_until (spin, yield, sleep) for run_gen to change.  f_parallel
 * publishes a run by bumping run_gen with a release, so everything the main
 * thread created before is visible to the servers; each server checks out
 * when the run is over, and the main thread returns once all have, so no
 * server touches the library's state after f_parallel returns.  Server
 * threads get FI_STACK_BYTES of stack, for helper-join recursion.
 */
#define _GNU_SOURCE  /* sched_getaffinity, pthread_attr_setaffinity_np (FILAMENTS_BIND) */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "row.h"
#include "wait.h"

struct fi_lib fi_lib = { .state = FI_UNINIT };
__thread struct fi_server *fi_self;
F_API __thread size_t f_self_slot_;

struct run_wait {
    AO_t gen;
};

static int run_posted(void *ctx)
{
    const struct run_wait *w = ctx;
    return AO_load_acquire(&fi_lib.run_gen) != w->gen || AO_load_acquire(&fi_lib.shutdown);
}

static void *server_main(void *arg)
{
    struct fi_server *me = arg;
    fi_self = me;
    f_self_slot_ = (size_t)me->index * FI_CACHE_LINE;
    struct run_wait w = { .gen = 0 };
    fi_forkjoin_open(me, 1);
    /* Release: the deque's move into this thread (forkjoin.c), before the
     * main thread forks into it; pairs with all_started. */
    if (AO_fetch_and_add1_release(&fi_lib.started) == (AO_t)fi_lib.nservers - 1)
        fi_wake_all(&fi_lib.main_wait);
    for (;;) {
        /* Between runs the main thread needs a core to post the next one. */
        fi_wait_until(&fi_lib.servers_wait, run_posted, &w, fi_lib.servers_fill_cores,
                      FI_PARK_YIELD_NS, NULL);
        if (AO_load_acquire(&fi_lib.shutdown)) {
            fi_forkjoin_open(me, 0);    /* the deque outlives the thread */
            return NULL;
        }
        w.gen = AO_load(&fi_lib.run_gen);
        fi_lib.job(me);    /* published with run_gen */
        /* Release: this server's writes (results, statistics) before the
         * main thread returns from f_parallel; pairs with all_checked_out. */
        if (AO_fetch_and_add1_release(&fi_lib.checked_out) == (AO_t)fi_lib.nservers - 1)
            fi_wake_all(&fi_lib.main_wait);
    }
}

static int online_cpus(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

static void destroy_servers(int n)
{
    for (int k = 0; k < n; ++k) {
        struct fi_server *s = &fi_lib.servers[k];
        fi_rtc_discard(s, fi_vararg_discard);
        fi_forkjoin_discard(s, fi_vararg_discard);
        fi_deque_destroy(&s->deque);
        fi_queue_destroy(&s->any);
        fi_queue_destroy(&s->inbox.queue);
        fi_queue_destroy(&s->pinned);
    }
    fi_free(fi_lib.servers);
    fi_lib.servers = NULL;
    fi_barrier_free();
}

static FI_MUST_CHECK int alloc_servers(int n, size_t deque_slots)
{
    if (fi_barrier_alloc(n) < 0)
        return F_ENOMEM;
    fi_lib.servers = fi_alloc_aligned((size_t)n * sizeof(struct fi_server));
    if (fi_lib.servers == NULL) {
        fi_barrier_free();
        return F_ENOMEM;
    }
    memset(fi_lib.servers, 0, (size_t)n * sizeof(struct fi_server));
    for (int k = 0; k < n; ++k) {
        struct fi_server *s = &fi_lib.servers[k];
        s->index = k;
        s->steal_seed = 2654435761u * (unsigned)(k + 1);
        if (fi_queue_init(&s->any) < 0 || fi_queue_init(&s->inbox.queue) < 0 ||
            fi_queue_init(&s->pinned) < 0 || fi_deque_init(&s->deque, deque_slots) < 0) {
            destroy_servers(k + 1);
            return F_ENOMEM;
        }
    }
    return F_OK;
}

static void stop_threads(int n)
{
    AO_store_release(&fi_lib.shutdown, 1);
    fi_wake_all(&fi_lib.servers_wait);
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

static int bind_next(pthread_attr_t *attr, int k, const fi_cpus *allowed)
{
    cpu_set_t one;
    int nth = k % CPU_COUNT(allowed);
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
        if (CPU_ISSET(cpu, allowed) && nth-- == 0) {
            CPU_ZERO(&one);
            CPU_SET(cpu, &one);
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

/* Start the servers, and wait until each has its deque in its thread. */
static FI_MUST_CHECK int start_threads(int bind_setting)
{
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

int f_initialize(int nservers)
{
    if (fi_self != NULL || fi_state() != FI_UNINIT)
        return F_ESTATE;
    struct fi_env env;
    int rc = fi_env_read(&env);
    if (rc < 0)
        return rc;
    if (nservers <= 0)
        nservers = env.servers > 0 ? env.servers : online_cpus();
    if (nservers > FI_MAX_SERVERS)
        return F_EINVAL;

    fi_lib.nservers = nservers;
    fi_lib.oversubscribed = nservers > online_cpus();
    fi_lib.servers_fill_cores = nservers >= online_cpus();
    fi_lib.print_stats = env.stats;
    AO_store(&fi_lib.prune, (AO_t)env.prune);
    fi_lib.any_next = 0;
    AO_store(&fi_lib.run_gen, 0);
    AO_store(&fi_lib.shutdown, 0);
    AO_store(&fi_lib.checked_out, 0);
    AO_store(&fi_lib.started, 0);
    AO_store(&fi_lib.dynamic, 0);
    AO_store(&fi_lib.busy, 0);
    AO_store(&fi_lib.settled, 0);

    if ((rc = fi_waitset_init(&fi_lib.servers_wait)) < 0)
        return rc;
    if ((rc = fi_waitset_init(&fi_lib.main_wait)) < 0)
        goto undo_servers_wait;
    if ((rc = alloc_servers(nservers, (size_t)env.deque_slots)) < 0)
        goto undo_main_wait;
    if ((rc = fi_phase_cursors_init()) < 0)
        goto undo_servers;
    if ((rc = start_threads(env.bind)) < 0)
        goto undo_phase_cursors;
    fi_rtc_cursors_open(1);
    fi_phase_cursors_open(1);
    AO_store_release(&fi_lib.state, FI_READY);
    return F_OK;

undo_phase_cursors:
    fi_phase_cursors_free();
undo_servers:
    destroy_servers(nservers);
undo_main_wait:
    fi_waitset_destroy(&fi_lib.main_wait);
undo_servers_wait:
    fi_waitset_destroy(&fi_lib.servers_wait);
    return rc;
}

void f_finalize(void)
{
    if (fi_self != NULL || fi_state() != FI_READY)
        return;
    if (fi_lib.print_stats)
        fi_stats_print();
    stop_threads(fi_lib.nservers);
    fi_phases_free();
    fi_owned_free_all();
    fi_rtc_cursors_open(0);
    fi_phase_cursors_free();
    fi_range_versions_free();
    fi_lib.poll = NULL;
    destroy_servers(fi_lib.nservers);
    fi_waitset_destroy(&fi_lib.main_wait);
    fi_waitset_destroy(&fi_lib.servers_wait);
    fi_lib.nservers = 0;
    AO_store_release(&fi_lib.state, FI_UNINIT);
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
    fi_wait_until(&fi_lib.main_wait, all_checked_out, NULL, fi_lib.servers_fill_cores,
                  FI_PARK_YIELD_NS, NULL);
}

int f_parallel(void)
{
    if (fi_check_main_between_runs() < 0)
        return F_ESTATE;
    AO_store(&fi_lib.state, FI_RUNNING);
    fi_rtc_cursors_open(0);
    fi_phase_cursors_open(0);
    fi_phases_begin_run();
    fi_sched_begin_run();
    fi_servers_each(fi_sched_run);

    /* Each run consumes what was created before it. */
    fi_phases_free();
    AO_store(&fi_lib.any_used, 0);
    for (int k = 0; k < fi_lib.nservers; ++k) {
        fi_queue_reset(&fi_lib.servers[k].any);
        fi_queue_reset(&fi_lib.servers[k].pinned);
    }
    fi_rtc_cursors_open(1);
    fi_phase_cursors_open(1);
    AO_store(&fi_lib.state, FI_READY);
    return F_OK;
}


int f_num_servers(void)
{
    return fi_state() == FI_UNINIT ? F_ESTATE : fi_lib.nservers;
}

int f_my_server(void)
{
    return fi_self != NULL ? fi_self->index : F_ESTATE;
}
