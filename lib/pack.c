/*
 * pack.c - packing the rows of run-to-completion filaments in a full chunk
 * (beyond the paper, as the runs of iterative filaments are; rows: row.c).
 *
 * A grid program creates a filament per point, row by row: matmul n = 1000
 * creates 1 000 000 inner products, 32 MiB of descriptors that the main
 * thread writes into fresh pages while every server waits for f_parallel
 * (a 2-server run took 1.036 times the coarse-grain program's time, the
 * difference being that creation).  So when the main thread's cursor (or a
 * creating server's own) has filled a chunk that ends in a row - three or
 * more filaments of the same fn, i and arg with consecutive j - the library
 * packs the chunk's new descriptors before it takes another chunk: the
 * points of each such row after the first become one descriptor, a call of
 * run_rest, and the cursor goes on in the room freed.  A row then takes two
 * slots of a chunk that stays in the cache: its points cost the scan that
 * packs them (about as many instructions as their creation) instead of
 * fresh memory, and creation in matmul's rows took 2.6 ms instead of 6.6
 * (1 000 000 filaments).  Other filaments pay one test per chunk, and each
 * descriptor is packed at most once.  The server calls a row's points in
 * the order they were created, as a forward pass calls a run's [paper
 * §4.4]: by fn's range version, if the program named one.
 *
 * Server s's pack cursor (server.h) is the main thread's between runs, or
 * s's creator's (rtc.c, create.c): whoever writes s's pinned queue.
 */
#include <stdint.h>

#include "pack.h"
#include "row.h"
#include "state.h"

/* The points of the row after its first, `first`: j + 1 .. j_last. */
static void run_rest(long unused, long j_last, void *first)
{
    const struct fi_desc *a = first;
    fi_row_run_forward(a->fn, a->i, a->j + 1, j_last, a->arg);
    /* The queue counted this descriptor as one filament. */
    fi_self->stats.filaments_run += (unsigned long)j_last - (unsigned long)a->j - 1;
}

unsigned long fi_pack_filaments(const struct fi_desc *d, size_t n)
{
    unsigned long filaments = 0;
    for (size_t k = 0; k < n; ++k)
        filaments += d[k].fn == run_rest
                         ? (unsigned long)d[k].j - (unsigned long)((struct fi_desc *)d[k].arg)->j
                         : 1;
    return filaments;
}

/* Is b the point after a in a row: same fn, i and arg, and j one more
 * (not across LONG_MAX: b->j > a->j)? */
static inline int next_in_row(const struct fi_desc *a, const struct fi_desc *b)
{
    return b->j > a->j && (unsigned long)b->j - (unsigned long)a->j == 1 && b->fn == a->fn &&
           b->i == a->i && b->arg == a->arg;
}

/* Does d extend the row that begins at `first` and ends at `last`, the
 * descriptor after it: either a packed rest, or the row's second point? */
static int extends_row(const struct fi_desc *first, const struct fi_desc *last,
                       const struct fi_desc *d)
{
    if (last->fn == run_rest)    /* the row's last point is last->j */
        return next_in_row(&(struct fi_desc){ first->fn, first->i, last->j, first->arg }, d);
    return next_in_row(first, last) && next_in_row(last, d);
}

/* Pack [from, end) in place, after the packed slots [start, from): return
 * the new end. */
static struct fi_desc *pack_rows(struct fi_desc *start, struct fi_desc *from,
                                 struct fi_desc *end)
{
    struct fi_desc *out = from;
    for (const struct fi_desc *d = from; d < end; ++d) {
        if (out - start < 2 || !extends_row(out - 2, out - 1, d)) {
            *out++ = *d;
            continue;
        }
        /* The row goes on: find where it ends, then store it once.  The
         * row's point in a local, which stays in registers. */
        struct fi_desc point = *d;
        for (; d + 1 < end && next_in_row(&point, d + 1); ++d)
            point.j++;
        out[-1] = (struct fi_desc){ run_rest, 0, point.j, out - 2 };
    }
    return out;
}

/* Pack from slot `floor` of chunk c on (a NULL c: from the head of the
 * next chunk packed), leaving what lies before as it is. */
void fi_pack_from(struct fi_server *s, struct fi_chunk *c, size_t floor)
{
    s->pack_chunk = c;
    s->packed = s->pack_floor = floor;
}

/*
 * The cursor of server s has filled its chunk: pack it if it ends in a row.
 * Packing that frees less than an eighth of the chunk is the chunk's last,
 * so that a row begun at the end of a chunk of other filaments does not
 * come back here for every point.  No row reaches below pack_floor: the
 * chunk's first slot, or where a server's creator began (create.c), so
 * that a failed f_create_per_server can cut the queue back there.
 */
void fi_pack_full_chunk(struct fi_server *s)
{
    struct fi_chunk *c = s->pinned.last;
    size_t tail = AO_load(&c->tail);
    if (c != s->pack_chunk)
        fi_pack_from(s, c, AO_load(&c->head));
    size_t floor = s->pack_floor;
    if (tail != c->cap || s->packed == SIZE_MAX || tail - floor < 3 ||
        !extends_row(&c->slot[tail - 3], &c->slot[tail - 2], &c->slot[tail - 1]))
        return;
    struct fi_desc *out = pack_rows(&c->slot[floor], &c->slot[s->packed], &c->slot[tail]);
    size_t end = (size_t)(out - c->slot);
    AO_store(&c->tail, end);
    s->packed = tail - end < c->cap / 8 ? SIZE_MAX : end;
}
