/*
 * floorplan-seq.c - the floorplan's moves and its sequential search
 * (floorplan.h): depth first, the choices in order, each child on a copy
 * of its parent's board in its own frame.
 *
 * The bound is a C11 atomic because the parallel programs share it and
 * call this search below their cut-off; alone, its relaxed loads are plain
 * loads, and it is lowered only at a complete placement that beats it.
 */
#include <limits.h>
#include <string.h>

#include "app.h"
#include "floorplan.h"

enum { BOARD = FLOORPLAN_BOARD };

const struct floorplan_state floorplan_corner = { 0 };

/* Where cell k goes in `choice` next to the last cell of s, its shape in
 * *w, *h; 0 if the choice names no shape of cell k, or the place of an
 * earlier side (as all do but the first next to the corner's empty cell). */
static int where(const struct floorplan *p, const struct floorplan_state *s, long k, long choice,
                 int *x, int *y, int *w, int *h)
{
    const struct floorplan_cell *c = &p->cell[k];
    int shape = (int)(choice / 4), side = (int)(choice % 4);
    if (shape >= c->shapes)
        return 0;
    *w = c->shape[shape].w;
    *h = c->shape[shape].h;
    const int px[4] = { s->x + s->w, s->x + s->w, s->x, s->x + s->w - *w };
    const int py[4] = { s->y, s->y + s->h - *h, s->y + s->h, s->y + s->h };
    for (int e = 0; e < side; ++e)
        if (px[e] == px[side] && py[e] == py[side])
            return 0;
    *x = px[side];
    *y = py[side];
    return 1;
}

static inline int max(int a, int b)
{
    return a > b ? a : b;
}

/* The area of the box with cell k in `choice` next to the last cell of
 * s, if it fits there, else 0; reads s only. */
static long fits(const struct floorplan *p, const struct floorplan_state *s, long k, long choice)
{
    int x, y, w, h;
    if (!where(p, s, k, choice, &x, &y, &w, &h) || x < 0 || y < 0 || x + w > BOARD || y + h > BOARD)
        return 0;
    for (int r = y; r < y + h; ++r)
        for (int col = x; col < x + w; ++col)
            if (s->board[r * BOARD + col] != 0)
                return 0;
    return (long)max(s->right, x + w) * max(s->bottom, y + h);
}

int floorplan_moves(const struct floorplan *p, const struct floorplan_state *s, long k,
                    atomic_long *best, long move[FLOORPLAN_CHOICES])
{
    long area[FLOORPLAN_CHOICES];
    long bound = atomic_load_explicit(best, memory_order_relaxed);
    int n = 0;
    for (long c = 0; c < FLOORPLAN_CHOICES; ++c) {
        long a = fits(p, s, k, c);
        if (a == 0 || a >= bound)
            continue;
        int i = n++; /* insertion: by area, then by choice */
        for (; i > 0 && area[i - 1] > a; --i) {
            area[i] = area[i - 1];
            move[i] = move[i - 1];
        }
        area[i] = a;
        move[i] = c;
    }
    return n;
}

void floorplan_put(const struct floorplan *p, const struct floorplan_state *s, long k, long choice,
                   struct floorplan_state *child)
{
    int x, y, w, h;
    where(p, s, k, choice, &x, &y, &w, &h);
    memcpy(child, s, sizeof *child);
    for (int r = y; r < y + h; ++r)
        memset(&child->board[r * BOARD + x], (int)(k + 1), (size_t)w);
    child->x = x;
    child->y = y;
    child->w = w;
    child->h = h;
    child->right = max(s->right, x + w);
    child->bottom = max(s->bottom, y + h);
}

long floorplan_leaf(const struct floorplan_state *s, atomic_long *best)
{
    long area = (long)s->right * s->bottom;
    long old = atomic_load_explicit(best, memory_order_relaxed);
    /* Relaxed: the bound orders nothing.  A failed exchange loads the
     * bound that another task set meanwhile into old. */
    while (area < old && !atomic_compare_exchange_weak_explicit(
                             best, &old, area, memory_order_relaxed, memory_order_relaxed))
        continue;
    return area;
}

long floorplan_expand(const struct floorplan *p, const struct floorplan_state *s, long k,
                      atomic_long *best)
{
    if (k == p->n - 1)
        return floorplan_leaf(s, best);
    long move[FLOORPLAN_CHOICES], least = LONG_MAX;
    int n = floorplan_moves(p, s, k + 1, best, move);
    for (int m = 0; m < n; ++m) {
        struct floorplan_state child;
        floorplan_put(p, s, k + 1, move[m], &child);
        long area = floorplan_expand(p, &child, k + 1, best);
        if (area < least)
            least = area;
    }
    return least;
}

void floorplan_seq(void *problem, int servers)
{
    struct floorplan *p = problem;
    atomic_long best = LONG_MAX;
    p->area = floorplan_expand(p, &floorplan_corner, -1, &best);
}
