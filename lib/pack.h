/*
 * pack.h - packing the rows of RTC filaments in a full chunk (pack.c):
 * what rtc.c calls as its cursors fill chunks.  The pack cursor is in each
 * server (pack_chunk, packed, pack_floor; server.h).
 */
#ifndef FI_PACK_H
#define FI_PACK_H

#include "base.h"

struct fi_server;
struct fi_chunk;

/* Server s's cursor has filled the last chunk of its pinned queue: pack
 * it if it ends in a row (its tail moves back). */
FI_HIDDEN void fi_pack_full_chunk(struct fi_server *s);
/* The filaments that descriptors d[0 .. n) stand for: one each, and a
 * packed row's rest its points. */
FI_HIDDEN unsigned long fi_pack_filaments(const struct fi_desc *d, size_t n);
/* Pack from slot `floor` of chunk c on; NULL: the queue starts again. */
FI_HIDDEN void fi_pack_from(struct fi_server *s, struct fi_chunk *c, size_t floor);

#endif /* FI_PACK_H */
