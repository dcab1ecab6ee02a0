/*
 * steal.h - the thief's side of the fork/join deque [paper §4.2, §4.5]
 * (steal.c).  A thief writes a victim's deque only through AO_ operations
 * on its `ts` and `splitreq` words and on the slot it claims (deque.h).
 */
#ifndef FI_STEAL_H
#define FI_STEAL_H

#include "base.h"

struct fi_server;

/* Is there a public slot an idle server could steal (scheduler.h)? */
FI_HIDDEN int fi_forkjoin_visible(const struct fi_server *me);
FI_HIDDEN void fi_steal_request(struct fi_server *victim);
/* Claim victim's oldest public slot: the slot, marked with our index, or
 * NULL (nothing public: then ask the victim for some). */
FI_HIDDEN struct f_task_ *fi_steal_claim(struct fi_server *me, struct fi_server *victim);

#endif /* FI_STEAL_H */
