/*
 * lifecycle.c - the library's life cycle and its runs, the top of the
 * layers (doc/design.md, "Layout of lib/"): f_initialize, f_finalize,
 * f_parallel and f_run_long's kin [paper §2, §4].
 *
 * It knows each mechanism only through the hooks of struct fi_mechanism
 * (base.h), and calls them from the one list below, in its order (the
 * frees in the reverse one): adding a mechanism adds a line to the list.
 * The servers' threads are server.c's, the run loop is the scheduler's.
 */
#include <stddef.h>
#include <string.h>
#include <unistd.h>

#include "barrier.h"
#include "forkjoin.h"
#include "handoff.h"
#include "loop.h"
#include "strips.h"
#include "phase.h"
#include "row.h"
#include "rtc.h"
#include "scheduler.h"
#include "stats.h"
#include "trace.h"
#include "vararg.h"
#include "memory.h"
#include "env.h"
#include "state.h"
#include "wait.h"

static const struct fi_mechanism *const mechanisms[] = {
    &fi_barrier_mechanism,   /* the tree (barrier.c) */
    &fi_rtc_mechanism,       /* each server's queues and the main thread's cursors (rtc.c) */
    &fi_forkjoin_mechanism,  /* each server's deque, in its thread (forkjoin.c) */
    &fi_phase_mechanism,     /* the iterative phases and their cursors (phase.c) */
    &fi_row_mechanism,       /* the range versions (row.c) */
    &fi_sched_mechanism,     /* the run's start, the polls (scheduler.c) */
    &fi_handoff_mechanism,   /* each server's CPU clock; cores traded in this run? (handoff.c) */
    &fi_owned_mechanism,     /* reductions and continuations (memory.c) */
    &fi_strips_mechanism,    /* loops' adaptive strips: placements, claims (strips.c) */
    &fi_loop_mechanism,      /* the main thread's loop partials (loop.c) */
    &fi_stats_mechanism,     /* FILAMENTS_STATS (stats.c) */
    /* Last: its begin_run is the closest to the run's start, its end_run
     * to the run's end. */
    &fi_trace_mechanism,     /* FILAMENTS_TRACE, f_trace_start (trace.c) */
};
enum { NMECHANISMS = sizeof mechanisms / sizeof *mechanisms };

/* Call hook `member` (a void (*)(void)) of each mechanism that has one. */
#define EACH(member)                                                                           \
    for (int k = 0; k < NMECHANISMS; ++k)                                                      \
        if (mechanisms[k]->member != NULL)                                                     \
    mechanisms[k]->member

/* The first n mechanisms' frees, last first. */
static void free_first(int n)
{
    while (n-- > 0)
        if (mechanisms[n]->free != NULL)
            mechanisms[n]->free();
}

static FI_MUST_CHECK int alloc_all(const struct fi_env *env)
{
    for (int k = 0; k < NMECHANISMS; ++k) {
        int rc = mechanisms[k]->alloc != NULL ? mechanisms[k]->alloc(env) : F_OK;
        if (rc < 0) {
            free_first(k);
            return rc;
        }
    }
    return F_OK;
}

/* On each server's thread (server.c). */
static void open_server(struct fi_server *me, int open)
{
    EACH(open)(me, open);
}

static void ready(int ready)
{
    EACH(ready)(ready);
}

static int online_cpus(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

/* The servers' array, zeroed, each knowing its index. */
static FI_MUST_CHECK int alloc_servers(int n)
{
    fi_lib.servers = fi_alloc_aligned((size_t)n * sizeof(struct fi_server));
    if (fi_lib.servers == NULL)
        return F_ENOMEM;
    memset(fi_lib.servers, 0, (size_t)n * sizeof(struct fi_server));
    for (int k = 0; k < n; ++k) {
        fi_lib.servers[k].index = k;
        fi_lib.servers[k].steal_seed = 2654435761u * (unsigned)(k + 1);
    }
    return F_OK;
}

static void free_servers(void)
{
    fi_free(fi_lib.servers);
    fi_lib.servers = NULL;
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
    fi_lib.any_next = 0;

    if ((rc = fi_waitset_init(&fi_lib.servers_wait)) < 0)
        return rc;
    if ((rc = fi_waitset_init(&fi_lib.main_wait)) < 0)
        goto undo_servers_wait;
    if ((rc = fi_waitset_init(&fi_lib.team_wait)) < 0)
        goto undo_main_wait;
    if ((rc = alloc_servers(nservers)) < 0)
        goto undo_team_wait;
    if ((rc = alloc_all(&env)) < 0)
        goto undo_servers;
    if ((rc = fi_servers_start(env.bind, open_server)) < 0)
        goto undo_mechanisms;
    ready(1);
    /* No release: no thread reads the state with an acquire (fi_state);
     * another thread of the program that calls the library next is
     * ordered after this one by the program's own synchronization. */
    AO_store(&fi_lib.state, FI_READY);
    return F_OK;

undo_mechanisms:
    free_first(NMECHANISMS);
undo_servers:
    free_servers();
undo_team_wait:
    fi_waitset_destroy(&fi_lib.team_wait);
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
        EACH(print_stats)();
    fi_servers_stop();
    EACH(finalize)();
    ready(0);
    /* What was created and never ran: vararg.c frees its blocks. */
    EACH(discard)(fi_vararg_discard);
    free_first(NMECHANISMS);
    free_servers();
    fi_waitset_destroy(&fi_lib.team_wait);
    fi_waitset_destroy(&fi_lib.main_wait);
    fi_waitset_destroy(&fi_lib.servers_wait);
    fi_lib.nservers = 0;
    AO_store(&fi_lib.state, FI_UNINIT);    /* no release: as in f_initialize */
}

int f_parallel(void)
{
    if (fi_check_main_between_runs() < 0)
        return F_ESTATE;
    AO_store(&fi_lib.state, FI_RUNNING);
    ready(0);
    EACH(begin_run)();
    fi_servers_each(fi_sched_run);
    /* Each run consumes what was created before it. */
    EACH(end_run)();
    ready(1);
    AO_store(&fi_lib.state, FI_READY);
    return F_OK;
}

/*
 * A typed root (f_run_long): fork/join runs the typed function's slot, a
 * copy on the main thread's stack, as a filament of its own; its value
 * stays in the copy, which is read here once f_parallel returns.
 */
static int run_typed(unsigned long kind, void (*fn)(void), long i, long j, void *arg,
                     f_value *value)
{
    if (fi_check_main_between_runs() < 0)
        return F_ESTATE;
    if (fn == NULL)
        return F_EINVAL;
    struct f_task_ task = { .word_ = f_word_(kind, fn), .i_ = i, .j_ = j, .arg_ = arg };
    int rc = fi_forkjoin_root_typed(&task);
    if (rc == F_OK)
        rc = f_parallel();
    if (rc == F_OK)
        *value = task.result_;
    return rc;
}

#define FI_RUN(T, name, KIND, member)                                                          \
    int f_run_##name(f_##name##_func fn, long i, long j, void *arg, T *result)                 \
    {                                                                                          \
        f_value value;                                                                         \
        int rc = run_typed(KIND, (void (*)(void))fn, i, j, arg, &value);                       \
        if (rc == F_OK && result != NULL)                                                      \
            *result = value.member;                                                            \
        return rc;                                                                             \
    }
FI_RUN(long, long, F_KIND_LONG_, l)
FI_RUN(double, double, F_KIND_DOUBLE_, d)
FI_RUN(void *, ptr, F_KIND_PTR_, p)
