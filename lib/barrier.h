/*
 * barrier.h - the combining-tree barrier between episodes [paper §4.4]
 * (barrier.c).  Its state: the tree (fi_lib.barrier_nodes, written by
 * every server through AO_ operations) and each server's barrier_go
 * (written by the server that releases it), barrier_round, barrier_leaf
 * and barrier_slot (the owner; server.h).
 */
#ifndef FI_BARRIER_H
#define FI_BARRIER_H

#include "base.h"

struct fi_server;

/* What a round decides, in the release word's low bits. */
enum { FI_VERDICT_SETTLE = 1, FI_VERDICT_DONE = 2 };
/* What a server waiting at the barrier may do instead of waiting. */
struct fi_idle_ops {
    int (*visible)(struct fi_server *me);  /* is there work it could help with? */
    void (*help)(struct fi_server *me);    /* take some and run it */
};
/* Arrive, wait for every server, and return the round's verdict: the one
 * that decide(ctx) returned on the last server to arrive, which calls it
 * once all have arrived and before any leaves. */
FI_HIDDEN unsigned fi_barrier_cross(struct fi_server *me, unsigned (*decide)(void *), void *ctx,
                                    const struct fi_idle_ops *idle);
FI_HIDDEN extern const struct fi_mechanism fi_barrier_mechanism;

#endif /* FI_BARRIER_H */
