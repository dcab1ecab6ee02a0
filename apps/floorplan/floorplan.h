/*
 * floorplan.h - a floorplan by branch and bound, in the shape of the
 * floorplan benchmark of BOTS [Duran]: place --size cells, each in one of
 * a few alternative shapes, on a board of FLOORPLAN_BOARD x FLOORPLAN_BOARD
 * chars, each cell touching the one placed before it, so that the box from
 * the board's corner to the farthest cell has the least area.  A node of
 * the search is a partial placement, its state the board itself: each
 * child copies its parent's board and puts its cell on the copy, as BOTS's
 * tasks do, so the parent's board is only read while its children run.
 * The best area so far is one word that every task reads to cut a branch
 * whose box is already as large, and lowers at a complete placement.
 *
 * Cell k + 1 goes next to cell k in one of FLOORPLAN_CHOICES ways: one of
 * its shapes, on one of four sides: to the right of cell k with their tops
 * or their bottoms aligned, or below it with their left or right sides
 * aligned (a side that gives the same place as the one before it is
 * skipped).  It must lie on the board and on free squares.  Cell 0 goes in
 * the corner: it is placed next to an empty cell there.
 *
 * The least area is the same whatever order the branches are searched in
 * and whatever the bound was when a branch was cut (a branch is cut only
 * if nothing below it can beat a placement found); the number of nodes
 * searched is not, and is not printed.  The result is the area.
 */
#ifndef FLOORPLAN_H
#define FLOORPLAN_H

#include <stdatomic.h>

#include "app-stats.h"

#define FLOORPLAN_BOARD 64
#define FLOORPLAN_SHAPES 3 /* the most shapes of a cell */
#define FLOORPLAN_CHOICES (4 * FLOORPLAN_SHAPES)

struct floorplan_shape {
    int w, h;
};

struct floorplan_cell {
    int shapes;
    struct floorplan_shape shape[FLOORPLAN_SHAPES];
};

/* A partial placement: cells 0 .. k on the board, cell k at (x, y). */
struct floorplan_state {
    int x, y, w, h;    /* where cell k lies */
    int right, bottom; /* the box: the farthest column and row, plus one */
    char board[FLOORPLAN_BOARD * FLOORPLAN_BOARD]; /* 0 free, else 1 + the cell's number */
};

struct floorplan {
    long n;                      /* cells */
    struct floorplan_cell *cell; /* n */
    long area;                   /* the result: the least area */
    struct app_stats stats;      /* Filaments program: the library's counters over the run */
};

/*
 * floorplan-seq.c: the search, shared by every program.  best is the
 * least area found so far, read relaxed (a stale value cuts fewer
 * branches, never a wrong one) and lowered by a compare-and-swap loop;
 * the answer itself comes back as the searches' return values.
 */

/* The choices in which cell k fits next to cell k - 1 of s, in a box
 * smaller than *best, into move[]: the smallest box first (then the first
 * choice), so that the search meets good placements early; how many.
 * Reads s only. */
int floorplan_moves(const struct floorplan *p, const struct floorplan_state *s, long k,
                    atomic_long *best, long move[FLOORPLAN_CHOICES]);

/* *child: s with cell k put in `choice` (one of its moves). */
void floorplan_put(const struct floorplan *p, const struct floorplan_state *s, long k, long choice,
                   struct floorplan_state *child);

/* The root of the search: an empty board, and an empty cell in the corner
 * for cell 0 to go next to (floorplan-seq.c). */
extern const struct floorplan_state floorplan_corner;

/* A complete placement: lower *best to its area; the area. */
long floorplan_leaf(const struct floorplan_state *s, atomic_long *best);

/* The least area of the placements of cells k + 1 .. n - 1 after s (cells
 * 0 .. k placed), or LONG_MAX if none beats *best: the sequential search. */
long floorplan_expand(const struct floorplan *p, const struct floorplan_state *s, long k,
                      atomic_long *best);

/* The peers' cut-off: cells k >= app_peer_depth(FLOORPLAN_PEER_LEVELS,
 * servers) are placed by the sequential search, without tasks. */
#define FLOORPLAN_PEER_LEVELS 4

/* The programs: run(problem, servers), as struct app_impl wants. */
void floorplan_seq(void *problem, int servers);
void floorplan_fil(void *problem, int servers); /* floorplan-fil.c */
void floorplan_omp(void *problem, int servers); /* floorplan-omp.c */

#endif /* FLOORPLAN_H */
