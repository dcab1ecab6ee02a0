/*
 * server.c - the servers' threads (lib/server.c; doc/model-check.md).
 *
 * By default: their start, a run posted and ended, and their stop, between
 * the main thread and FI_MODEL_SERVERS servers (1 by default).  Each
 * hand-over carries plain writes, which the other side reads (a race
 * unless the release and the acquire of the hand-over order them): what
 * each server's thread sets up at its start, which the main thread reads
 * once fi_servers_start returns; the run's input and each server's result;
 * what the main thread writes before the stop, which each server reads at
 * its end.
 *
 * With FI_MODEL_TEAM: a loop's team posted and joined
 * (fi_servers_team_post, fi_servers_team_join) between the main thread,
 * which does server 0's share, and server 1, the team's one member, which
 * waits for the post and does its share as server_main does (run_posted,
 * team_job); the loop's input is written before the post, each share read
 * after the join.  Server 0's thread, which a loop never wakes, is left
 * out: with it, and the start and the stop, the check did not end in 3
 * minutes.
 *
 * Everybody polls, yields and sleeps (wait.c): a post or an end whose
 * wake-up is lost is a liveness violation.
 */
#include "model.h"

#include "../../lib/state.c"
#include "../../lib/wait.c"

/* Each server's thread sets its own fi_self and f_self_slot_ (server_main),
 * and no thread reads another's: thread-locals of GenMC's here, not the
 * globals that model.h makes of them for the thieves that follow an
 * owner's. */
static _Thread_local struct fi_server *fi_model_self;
static _Thread_local size_t fi_model_self_slot;
#define fi_self fi_model_self
#define f_self_slot_ fi_model_self_slot
#include "../../lib/server.c"
#undef fi_self
#undef f_self_slot_

#include "harness.h"

#ifndef FI_MODEL_SERVERS
#define FI_MODEL_SERVERS 1
#endif

static long opened[FI_MODEL_SERVERS], run_in, ran[FI_MODEL_SERVERS], stop_in;
static long loop_in, share[2];

static void open_or_close(struct fi_server *me, int open)
{
    if (open)
        opened[me->index] = 1;
    else
        assert(stop_in == 1);
}

static void run(struct fi_server *me)
{
    ran[me->index] = run_in;
}

static void loop_share(struct fi_server *me)
{
    share[me->index] = loop_in + me->index;
}

/* Server 1 as a member of the team: server_main's wait, then its share. */
static void *member(void *arg)
{
    struct run_wait w = { .gen = 0, .team_gen = 0, .team = 1 };
    fi_wait_until(&fi_lib.team_wait, run_posted, &w, 0, FI_PARK_YIELD_NS, NULL);
    team_job(arg, &w);
    return NULL;
}

int main(void)
{
#ifdef FI_MODEL_TEAM
    fi_model_init(2);
    if (fi_waitset_init(&fi_lib.main_wait) < 0 || fi_waitset_init(&fi_lib.team_wait) < 0)
        abort();
    pthread_t t;
    if (pthread_create(&t, NULL, member, &fi_model_servers[1]) != 0)
        abort();
    loop_in = 10;
    fi_servers_team_post(loop_share);
    loop_share(&fi_model_servers[0]);    /* the main thread stands in for server 0 */
    fi_servers_team_join();
    assert(share[0] == 10 && share[1] == 11);
    pthread_join(t, NULL);
#else
    fi_model_init(FI_MODEL_SERVERS);
    if (fi_waitset_init(&fi_lib.main_wait) < 0 || fi_waitset_init(&fi_lib.team_wait) < 0)
        abort();
    if (fi_servers_start(0, open_or_close) < 0)
        abort();
    for (int k = 0; k < FI_MODEL_SERVERS; ++k)
        assert(opened[k] == 1);
    run_in = 7;
    fi_servers_each(run);
    for (int k = 0; k < FI_MODEL_SERVERS; ++k)
        assert(ran[k] == 7);
    stop_in = 1;
    fi_servers_stop();
#endif
    return 0;
}
