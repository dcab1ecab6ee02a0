/*
 * deque.c - the split deque (lib/deque.c, fork.c, publish.c, steal.c,
 * forkjoin.c, typed.c; doc/model-check.md).
 *
 * Server 0 forks FI_MODEL_CHILDREN untyped children (2 by default) through
 * the inline fast path, then (unless FI_MODEL_TYPED is 0) a typed one,
 * syncs it inline and joins the rest inline; FI_MODEL_SERVERS - 1 thieves (1 by default) each try
 * FI_MODEL_TRIES times (2 by default) to steal from it, asking for work
 * where none is public; one request stands at the start, so that the
 * owner's first fork publishes.  So a thief's request (splitreq, and the bounds
 * zeroed) races the owner's inline forks, its typed sync and its join,
 * which answer it by a publish; a steal races the join's taking a public
 * child back; and a join waits for a thief's `done`.
 *
 * Every child must run once, wherever it runs, and its result (plain
 * stores) must be what the owner reads after the join or the sync: a
 * missing release or acquire is a data race that GenMC reports, a lost or
 * doubled child an assertion.  And no request may be lost: at the end, one
 * that stands has both fork bounds at 0.
 */
#include "model.h"

/* A thief counts each piece it took (stolen_pieces), and each that ran
 * FI_PRUNE_WORTH_NS or longer (stolen_big), both relaxed, for the owner's
 * choice of its prune depth (publish.c, adapt_depth), which no fork here
 * uses.  Every run of the harness's clock is 2^40 ns long: with the
 * tunable's own value every piece would be big, and the owner's relaxed
 * read of stolen_big at each answer may read either count, with nothing
 * to order: twice the executions (deque-2 under RC11 with the generic
 * mapping: 24 038 with it, 12 746 without).  So no piece is big. */
#define FI_PRUNE_WORTH_NS (~0UL)

#include "../../lib/state.c"
#include "../../lib/wait.c"
#include "../../lib/deque.c"
#include "../../lib/steal.c"
#include "../../lib/publish.c"
#include "../../lib/fork.c"
#include "../../lib/forkjoin.c"
#include "../../lib/typed.c"

#include "harness.h"

#ifndef FI_MODEL_SERVERS
#define FI_MODEL_SERVERS 2
#endif
#ifndef FI_MODEL_CHILDREN
#define FI_MODEL_CHILDREN 2
#endif
#ifndef FI_MODEL_TRIES
#define FI_MODEL_TRIES 2
#endif
/* 0: no typed fork and sync, only the untyped children and the join
 * (deque-2 and deque-3: deque-small checks the typed part). */
#ifndef FI_MODEL_TYPED
#define FI_MODEL_TYPED 1
#endif

static long out[FI_MODEL_CHILDREN];
static volatile AO_t runs[FI_MODEL_CHILDREN + 1];

static void child(long i, long j, void *arg)
{
    (void)j, (void)arg;
    out[i] = i + 1;
    __atomic_fetch_add(&runs[i], 1, __ATOMIC_RELAXED);
}

#if FI_MODEL_TYPED
static long typed_child(f_frame fr, long i, long j, void *arg)
{
    (void)fr, (void)j, (void)arg;
    __atomic_fetch_add(&runs[FI_MODEL_CHILDREN], 1, __ATOMIC_RELAXED);
    return i * 10;
}
#endif

static void own(void)
{
    for (long c = 0; c < FI_MODEL_CHILDREN; ++c)
        f_fork(child, c, 0, NULL);
#if FI_MODEL_TYPED
    f_frame fr = f_frame_here();
    f_fork_long(&fr, typed_child, 7, 0, NULL);
    assert(f_sync_long(&fr, typed_child) == 70);
#endif
    f_join();
    for (int c = 0; c < FI_MODEL_CHILDREN; ++c)
        assert(out[c] == c + 1 && AO_load(&runs[c]) == 1);
    assert(AO_load(&runs[FI_MODEL_CHILDREN]) == FI_MODEL_TYPED);
}

static void *server(void *arg)
{
    struct fi_server *me = arg;
    if (me->index == 0)
        own();
    else
        for (int t = 0; t < FI_MODEL_TRIES; ++t)
#if FI_MODEL_SERVERS > 2
            /* Server 0 only, as fi_forkjoin_help tries each victim: after
             * a failed claim it would ask the other thieves, whose deques
             * nothing ever fills, and their requests race the owner's
             * leapfrogging ones (wait_done) on words nobody reads. */
            steal_from(me, &fi_model_servers[0]);
#else
            fi_forkjoin_help(me);
#endif
    return NULL;
}

int main(void)
{
    fi_model_init(FI_MODEL_SERVERS);
    for (int k = 0; k < FI_MODEL_SERVERS; ++k)
        if (deque_init(&fi_model_servers[k].deque, 4) < 0)
            abort();
    /* Server 0's thread is the one whose f_deque_ and fi_self are open
     * (model.h: one copy of each); opened before any thief starts, as a
     * run's start orders it (deque.c, fi_forkjoin_open). */
    fi_self = &fi_model_servers[0];
    fi_forkjoin_open(&fi_model_servers[0], 1);
    /* A thief has asked already, having found nothing public: the owner's
     * first fork publishes, and a thief's first try may find it. */
    fi_steal_request(&fi_model_servers[0]);
    fi_model_run(FI_MODEL_SERVERS, 0, server);
    /* No request lost: one that stands has both bounds at 0, so that the
     * owner's next fork answers it (deque.c, set_bounds). */
    struct fi_deque *d = &fi_model_servers[0].deque;
    assert(AO_load(&d->splitreq) == 0 ||
           (AO_load(fi_deque_limit(d)) == 0 && AO_load(fi_deque_peak(d)) == 0));
    return 0;
}
