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
 * With FI_MODEL_TEAM: FI_MODEL_CALLS (2 by default) calls of a loop whose
 * member's share comes in two parts, posted and joined
 * (fi_servers_team_post, fi_servers_team_join) between the main thread,
 * which does server 0's share and then takes the member's parts not yet
 * taken, from the back, and server 1, the team's one member, which waits
 * for each post and takes parts from the front as server_main does
 * (run_posted, team_job), or finds a call it missed full.  Each part
 * writes its own result from the call's input, both plain: a part run
 * twice, in two calls or by both threads, or a part of one call run while
 * the main thread sets up the next, is a race; each result is read after
 * its call's join.  Server 0's thread, which a loop never wakes, is left
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
#ifndef FI_MODEL_CALLS
#define FI_MODEL_CALLS 2    /* 1 or 2: member() waits at most twice */
#endif
enum { PARTS = 2 };
static int call;    /* the main thread's, written before each post */
static long loop_in[FI_MODEL_CALLS], part_out[FI_MODEL_CALLS][PARTS];

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

static void loop_part(struct fi_server *member, unsigned part)
{
    (void)member;
    part_out[call][part] = loop_in[call] + (long)part;
}

/* Server 1 as a member of the team: server_main's wait, then the parts it
 * can take, until it has seen the last call.  Unrolled: GenMC takes a
 * loop around the wait whose pass took no part for a spin that never
 * ends. */
static void member_pass(struct fi_server *me, struct run_wait *w)
{
    fi_wait_until(&fi_lib.team_wait, run_posted, w, 0, FI_PARK_YIELD_NS, NULL);
    team_job(me, w);
}

static void *member(void *arg)
{
    struct run_wait w = { .gen = 0, .team_gen = 0, .team = 1 };
    member_pass(arg, &w);
#if FI_MODEL_CALLS > 1
    if (call_of(w.team_gen) < FI_MODEL_CALLS)
        member_pass(arg, &w);
#endif
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
    for (call = 0; call < FI_MODEL_CALLS; ++call) {
        loop_in[call] = 10 * (call + 1);
        fi_servers_team_post(loop_part, PARTS);
        /* Server 0's strip, which the main thread runs, writes nothing. */
        fi_servers_team_join();
        for (unsigned p = 0; p < PARTS; ++p)
            assert(part_out[call][p] == loop_in[call] + (long)p);
    }
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
