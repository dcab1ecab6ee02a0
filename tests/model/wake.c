/*
 * wake.c - no lost wake-up between a publish and an idle server going to
 * sleep (lib/publish.c, lib/wait.c; doc/model-check.md).
 *
 * Server 0 holds two private children.  Server 1, idle, finds nothing
 * public, asks server 0 for work (fi_steal_request: splitreq, then both
 * fork bounds zeroed) and waits for public work as the scheduler's idle
 * servers do (fi_wait_until with fi_forkjoin_visible): it polls, yields,
 * then sleeps.  Server 0 answers the request as its next fork would
 * (fi_forkjoin_answer): it publishes one child and wakes the sleepers.
 * Whatever the interleaving, server 1 must come back, and find the child
 * public.
 *
 * The two sides are a Dekker pair: the publish's CAS on ts, then its look
 * at the sleepers; the sleeper's announcement, then its look at ts; a full
 * fence on each side between the two.  Where the request's zeroes of the
 * bounds have not yet reached server 0, its fi_forkjoin_bounds stores no
 * bound and so has no fence of its own to lend: without the fence of the
 * publish's wake-up, its look at the sleepers passes its CAS wherever a
 * read-modify-write is no fence (libatomic_ops' generic mapping), sees
 * none, and GenMC's liveness check finds server 1 asleep for good.
 */
#include "model.h"

#include "../../lib/state.c"
#include "../../lib/wait.c"
#include "../../lib/deque.c"
#include "../../lib/steal.c"
#include "../../lib/publish.c"

#include "harness.h"

static void child(long i, long j, void *arg)
{
    (void)i, (void)j, (void)arg;
}

static int work_visible(void *me)
{
    return fi_forkjoin_visible(me);
}

static void *server(void *arg)
{
    struct fi_server *me = arg;
    struct fi_server *owner = &fi_model_servers[0];
    if (me == owner) {
        while (AO_load(&owner->deque.splitreq) == 0)
            ;    /* forks until one sees the request */
        fi_forkjoin_answer(me);
    } else {
        fi_steal_request(owner);
        fi_wait_until(&fi_lib.servers_wait, work_visible, me, 0, FI_RUN_YIELD_NS, NULL);
    }
    return NULL;
}

int main(void)
{
    fi_model_init(2);
    for (int k = 0; k < 2; ++k)
        if (deque_init(&fi_model_servers[k].deque, 4) < 0)
            abort();
    /* Server 0's two private children, as two forks leave them. */
    struct fi_deque *d = &fi_model_servers[0].deque;
    for (int k = 0; k < 2; ++k)
        d->own->bottom_++->word_ = f_word_(F_KIND_VOID_, (void (*)(void))child);
    d->peak = 2;
    fi_forkjoin_bounds(d);
    fi_model_run(2, 0, server);
    assert(fi_forkjoin_visible(&fi_model_servers[1]));
    return 0;
}
