/*
 * floorplan-common.c - the floorplan's setup, check and main (floorplan.h).
 *
 * --size is the number of cells; the search grows some two to three times
 * per cell, unevenly (0.08 s at 14 cells, 0.25 to 0.5 s at 16, 1.2 to 1.4 s
 * at 18 on the 2-core test machine, busy).
 * The cells come from a fixed seed: each an area of 2 to 16 squares and 1
 * to 3 shapes of that area or a little more (a width of 1 to 6, the height
 * that covers the area), as BOTS's cells are alternative shapes of one
 * block.
 *
 * The check is exact: the sequential search again, from a bound of the
 * area found plus one, must find exactly that area: a placement that good
 * exists, and none better.  It takes about as long as the sequential
 * program: the search meets the least area early (floorplan_moves), and
 * most of its time goes to showing that nothing beats it.  The result and
 * the digest are the area.
 */
#include <limits.h>

#include "app.h"
#include "app-tasks.h"
#include "floorplan.h"

#define CELLS_MAX 40
#define SEED 1 /* the growth from cell to cell of seeds 1, 7 and 46, the most even */

static size_t bytes(long size)
{
    return app_bytes_add(sizeof(struct floorplan), (size_t)size, sizeof(struct floorplan_cell));
}

static void *create(const struct app_args *args)
{
    struct floorplan *p = app_alloc(1, sizeof *p);
    uint64_t state = SEED;
    p->n = args->size;
    p->cell = app_alloc((size_t)p->n, sizeof *p->cell);
    for (long k = 0; k < p->n; ++k) {
        struct floorplan_cell *c = &p->cell[k];
        int area = 2 + (int)(app_rand(&state) % 15);
        c->shapes = 1 + (int)(app_rand(&state) % FLOORPLAN_SHAPES);
        for (int s = 0; s < c->shapes; ++s) {
            int w = 1 + (int)(app_rand(&state) % 6);
            c->shape[s] = (struct floorplan_shape){ w, (area + w - 1) / w };
        }
    }
    p->area = -1;
    return p;
}

static int check(void *problem)
{
    const struct floorplan *p = problem;
    if (p->area < 0 || p->area == LONG_MAX) {
        fprintf(stderr, "floorplan: no placement found (area %ld)\n", p->area);
        return 0;
    }
    atomic_long bound = p->area + 1;
    long want = floorplan_expand(p, &floorplan_corner, -1, &bound);
    if (want != p->area) {
        fprintf(stderr, "floorplan: least area %ld, the search from a bound of %ld finds %ld\n",
                p->area, p->area + 1, want);
        return 0;
    }
    return 1;
}

static const void *result(void *problem, size_t *nbytes)
{
    const struct floorplan *p = problem;
    *nbytes = sizeof p->area;
    return &p->area;
}

static void fields(void *problem, FILE *out)
{
    const struct floorplan *p = problem;
    fprintf(out, " board=%d area=%ld", FLOORPLAN_BOARD, p->area);
    app_stats_print(&p->stats, out);
}

static void destroy(void *problem)
{
    struct floorplan *p = problem;
    app_free(p->cell);
    app_free(p);
}

static const struct app_tasks_impls impls = {
    { floorplan_seq, floorplan_fil, APP_TASKS_OMP(floorplan_omp) },
    { "sequential: the depth-first search, a board copy per node",
      "Filaments: f_fork_long/f_sync_long per child, board copied",
      "OpenMP tasks (libgomp), depth cut-off, no tasks below" },
};

static const struct app floorplan = {
    .name = "floorplan",
    .size_min = 1,
    .size_max = CELLS_MAX,
    .size_default = 16,
    .bytes = bytes,
    .create = create,
    .check = check,
    .result = result,
    .fields = fields,
    .destroy = destroy,
};

int main(int argc, char **argv)
{
    return app_tasks_main(&floorplan, &impls, argc, argv);
}
