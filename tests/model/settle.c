/*
 * settle.c - the settling stage's termination count (lib/scheduler.c:
 * settle; doc/model-check.md).
 *
 * Two servers settle, counted in busy by the decider (2), with a filament
 * in server 0's inbox (1 more).  Server 0's drain takes it; it creates a
 * filament for server 1, as push_inbox (rtc.c) does: counted in busy first
 * (relaxed), then made visible in server 1's inbox (a release, as the
 * inbox's unlock), and a wake-up; then it writes its result (plain), and
 * server 0 goes idle.  Server 1 goes idle, sees the inbox,
 * becomes active again (reactivate), takes the filament (an acquire, as
 * the inbox's lock; busy given back, relaxed), runs it: its result, plain;
 * and goes idle.  The decrement that reaches zero ends the stage.
 *
 * What settle promises (its comments): the last server to go idle has
 * everybody's writes, and every server has the last one's once it sees the
 * stage settled.  So each server, back from settle, reads both results
 * (plain: a race unless the decrements and `settled` carried them), and
 * nobody may sleep for good (liveness).
 */
#include "model.h"

#include "../../lib/state.c"
#include "../../lib/wait.c"
#include "../../lib/deque.c"
#include "../../lib/scheduler.c"

#include "harness.h"

struct fi_trace fi_trace;    /* trace.c's: no server records */

static long payload, result[2];

/* The RTC kind as settle sees it: each server's inbox, a count that
 * stands for the inbox's queue, and the filaments in it.  Taking it
 * acquires, as the inbox's lock does, and gives its busy count back. */
void fi_rtc_drain(struct fi_server *me)
{
    struct fi_inbox *b = &me->inbox;
    if (AO_load_acquire(&b->count) == 0)
        return;
    AO_store(&b->count, 0);
    AO_fetch_and_sub1(&fi_lib.busy);
    if (me->index == 0) {
        /* The filament creates one for server 1, as push_inbox does. */
        payload = 1;
        AO_fetch_and_add1(&fi_lib.busy);
        AO_store_release(&fi_model_servers[1].inbox.count, 1);
        fi_wake_all(&fi_lib.servers_wait);
        result[0] = 1;
    } else {
        result[1] = payload + 1;
    }
}

int fi_rtc_visible(const struct fi_server *me)
{
    return AO_load(&me->inbox.count) != 0;
}

int fi_rtc_help(struct fi_server *me)
{
    (void)me;
    return 0;
}

int fi_forkjoin_drain_held(struct fi_server *me)
{
    (void)me;
    return 0;
}

int fi_forkjoin_visible(const struct fi_server *me)
{
    (void)me;
    return 0;
}

void fi_forkjoin_ask(struct fi_server *me)
{
    (void)me;
}

int fi_forkjoin_help(struct fi_server *me)
{
    (void)me;
    return 0;
}

/* An empty queue of one chunk, for fi_has_queued_work (scheduler.h)
 * to look at; not queue.c's fi_queue_init, whose fi_queue_length GenMC
 * cannot compile at -O1 (a saturating subtraction). */
static void empty_queue(struct fi_queue *q)
{
    struct fi_chunk *c = fi_alloc(sizeof *c + sizeof c->slot[0]);
    c->cap = 1;
    AO_store(&q->first, (AO_t)c);
    q->last = q->origin = c;
}

static void *server(void *arg)
{
    struct fi_server *me = arg;
    settle(me);
    assert(result[0] == 1 && result[1] == 2);
    return NULL;
}

int main(void)
{
    fi_model_init(2);
    for (int k = 0; k < 2; ++k) {
        struct fi_server *s = &fi_model_servers[k];
        if (deque_init(&s->deque, 4) < 0)
            abort();
        empty_queue(&s->pinned);
        empty_queue(&s->any);
    }
    /* Server 0's inbox holds a filament, counted in busy with the servers. */
    AO_store(&fi_model_servers[0].inbox.count, 1);
    AO_store(&fi_lib.busy, 3);
    fi_model_run(2, 0, server);
    return 0;
}
