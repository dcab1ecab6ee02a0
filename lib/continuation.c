/*
 * continuation.c - values carried across barriers [paper §2.2, §4.4]: one
 * zeroed block per server, padded to whole cache lines, so the filaments of
 * one phase hand locally computed values to the next phase's filaments on
 * the same server without shared globals or locks.
 */
#include <stddef.h>

#include "memory.h"
#include "state.h"

struct f_continuation {
    struct fi_owned owned;
    size_t stride;
    char *blocks;
};

static void destroy(struct fi_owned *o)
{
    struct f_continuation *c = (struct f_continuation *)o;
    fi_free(c->blocks);
    fi_free(c);
}

f_continuation *f_new_continuation(size_t size)
{
    if (fi_check_main_between_runs() < 0)
        return NULL;
    struct f_continuation *c = fi_alloc(sizeof *c);
    if (c == NULL)
        return NULL;
    c->blocks = fi_per_server_alloc(size, &c->stride);
    if (c->blocks == NULL) {
        fi_free(c);
        return NULL;
    }
    fi_owned_link(&c->owned, destroy);
    return c;
}

void *f_continuation_of(f_continuation *c, int server)
{
    if (c == NULL || fi_servers_check_index(server) < 0)
        return NULL;
    return c->blocks + (size_t)server * c->stride;
}

void *f_continuation_local(f_continuation *c)
{
    return f_continuation_of(c, fi_self != NULL ? fi_self->index : 0);
}

void f_free_continuation(f_continuation *c)
{
    if (c == NULL || fi_check_main_between_runs() < 0)
        return;
    fi_owned_unlink(&c->owned);
    destroy(&c->owned);
}
