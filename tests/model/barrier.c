/*
 * barrier.c - the combining-tree barrier (lib/barrier.c; doc/model-check.md):
 * FI_MODEL_SERVERS servers (2 by default) cross it FI_MODEL_ROUNDS times
 * (2 by default), in a tree of fan-in 2, so that 3 and 4 servers climb two
 * levels.
 *
 * Each round, each server writes its part of the pass (plain), then
 * crosses; the last to arrive at the top decides: it reads every part
 * (plain: a race unless every arrival released to it), writes the
 * sequential code's result (plain) and a verdict; every server then reads
 * the result (a race unless the release reached it) and must have the
 * verdict.  Waiters poll, yield and sleep (wait.c), so a release that
 * skips the wake-up of a sleeper is a liveness violation.
 */
#include "model.h"

#include "../../lib/state.c"
#include "../../lib/wait.c"
#include "../../lib/barrier.c"

#include "harness.h"

#ifndef FI_MODEL_SERVERS
#define FI_MODEL_SERVERS 2
#endif
#ifndef FI_MODEL_ROUNDS
#define FI_MODEL_ROUNDS 2
#endif

static long part[FI_MODEL_SERVERS][FI_MODEL_ROUNDS];
static long seq_sum[FI_MODEL_ROUNDS];
static int round_decided;

static unsigned decide(void *ctx)
{
    int r = round_decided++;
    long sum = 0;
    (void)ctx;
    for (int s = 0; s < FI_MODEL_SERVERS; ++s)
        sum += part[s][r];
    seq_sum[r] = sum;
    return r == FI_MODEL_ROUNDS - 1 ? FI_VERDICT_DONE : FI_VERDICT_SETTLE;
}

static int nothing_visible(struct fi_server *me)
{
    (void)me;
    return 0;
}

static void no_help(struct fi_server *me)
{
    (void)me;
}

static const struct fi_idle_ops idle = { nothing_visible, no_help };

static void *server(void *arg)
{
    struct fi_server *me = arg;
    const long all = FI_MODEL_SERVERS * (FI_MODEL_SERVERS + 1) / 2;
    for (int r = 0; r < FI_MODEL_ROUNDS; ++r) {
        part[me->index][r] = me->index + 1;
        unsigned verdict = fi_barrier_cross(me, decide, NULL, &idle);
        assert(verdict == (r == FI_MODEL_ROUNDS - 1 ? FI_VERDICT_DONE : FI_VERDICT_SETTLE));
        assert(seq_sum[r] == all);
    }
    return NULL;
}

int main(void)
{
    struct fi_env env = { .fanin = 2 };
    fi_model_init(FI_MODEL_SERVERS);
    if (tree_alloc(&env) < 0)
        abort();
    fi_model_run(FI_MODEL_SERVERS, 0, server);
    return 0;
}
