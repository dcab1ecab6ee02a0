/*
 * queue.c - a shared array queue of filaments, as the F_ANY queues are
 * (lib/queue.c, queue.h; doc/model-check.md): its pusher appends, any
 * server claims, oldest first.
 *
 * Chunks of one descriptor, so that every push after the first links a
 * new chunk (fi_queue_push_slow) and every claim after one moves the
 * queue's first chunk on (fi_queue_next_chunk).  Server 0 pushes
 * FI_MODEL_PUSHES descriptors (2 by default), each with an argument it
 * wrote just before (plain); server 1 claims twice, server 2 looks
 * (fi_queue_nonempty, fi_queue_length, as an idle server does) and claims
 * once; each runs what it claimed, and the filament reads its argument.
 * Then the main thread claims what is left.  Every descriptor must run
 * once and see its argument (a plain read: a race unless the push released
 * it to the claim), and a chunk's fields must be read after the pusher
 * wrote them: the allocator hands out memory that holds a bad pointer in
 * every header word (harness.h), as reused memory may, so that a look at
 * a chunk not yet published follows it and GenMC reports the access.
 */
#include "model.h"

#include "../../lib/state.c"
#include "../../lib/queue.c"

#include "harness.h"

#ifndef FI_MODEL_PUSHES
#define FI_MODEL_PUSHES 2
#endif

static struct fi_queue q;
static long args[FI_MODEL_PUSHES];
static volatile AO_t runs[FI_MODEL_PUSHES];

static void filament(long i, long j, void *arg)
{
    (void)j;
    assert(*(long *)arg == i + 1);
    __atomic_fetch_add(&runs[i], 1, __ATOMIC_RELAXED);
}

static void claim_and_run(void)
{
    struct fi_desc *first;
    for (size_t n = fi_queue_claim(&q, 1, &first); n-- > 0; ++first)
        first->fn(first->i, first->j, first->arg);
}

static void *server(void *arg)
{
    struct fi_server *me = arg;
    if (me->index == 0) {
        for (long k = 0; k < FI_MODEL_PUSHES; ++k) {
            args[k] = k + 1;
            struct fi_desc d = { filament, k, 0, &args[k] };
            if (fi_queue_push(&q, &d) < 0)
                abort();
        }
    } else if (me->index == 1) {
        claim_and_run();
        claim_and_run();
    } else {
        if (fi_queue_nonempty(&q) && fi_queue_length(&q) > 0)
            claim_and_run();
    }
    return NULL;
}

int main(void)
{
    fi_queue_chunks(1, 1);
    if (fi_queue_init(&q) < 0)
        abort();
    fi_lib.nservers = 3;
    fi_lib.servers = fi_model_servers;
    for (int k = 0; k < 3; ++k)
        fi_model_servers[k].index = k;
    fi_model_run(3, 0, server);
    for (int k = 0; k < FI_MODEL_PUSHES; ++k)
        claim_and_run();
    for (int k = 0; k < FI_MODEL_PUSHES; ++k)
        assert(AO_load(&runs[k]) == 1);
    return 0;
}
