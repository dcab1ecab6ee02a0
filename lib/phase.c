/*
 * phase.c - iterative filaments: phases, runs and back-and-forth passes
 * [paper §2.2, §4.4].
 *
 * A phase is one array of runs per server plus the sequential code of the
 * barrier that ends it.  A run is a group of filaments created one after
 * the other with the same fn, i and arg and consecutive j (the points of a
 * grid row): it is stored once, 40 bytes however long it is, and executed
 * as a loop - by one call of the range version of fn where the program has
 * named one (f_set_range_version), so the compiler can optimize the points
 * of a row together as in a coarse-grain program.  A run is a row (row.h),
 * as the packed rows of RTC filaments are.  Passes alternate
 * direction over the runs (front to rear, then rear to front), so what was
 * touched last is touched first again; a backward pass walks the points of
 * a run with j decreasing.  A pass that calls a range version, which walks
 * j up, is followed by a forward one (fi_phase_pass).
 *
 * Phases are built by the main thread between runs and read-only during a
 * run, except each server's cursor (`backward`), which only it writes.
 * Each f_parallel consumes the phases created before it.
 */
#include <limits.h>
#include <string.h>

#include "phase.h"
#include "adapt.h"
#include "create.h"
#include "row.h"
#include "memory.h"
#include "env.h"
#include "state.h"

/* Argument blocks of variable-argument filaments, freed with their phase. */
struct fi_blocks {
    void **block;
    size_t n, cap;
};

struct fi_runs {
    _Alignas(FI_CACHE_LINE) struct fi_row *run;
    size_t n, cap;
    unsigned long closed;  /* filaments in every run but the last */
    int named;     /* a filament was created for this server by name, or by its creator */
    int backward;  /* the direction of this server's next pass; owner only */
    /* Fixed for a run (begin_run), off the path of every pass:
     * the filaments of a pass, and whether every run is a single point
     * with no range version to look up (pass_points). */
    unsigned long pass_filaments;
    int points_only;
    /* Argument blocks of the variable-argument filaments that this server's
     * creator made (f_create_per_server); the main thread's are the phase's. */
    struct fi_blocks owned;
    /* Where the runs ended before the server's creator began: a failed
     * call is undone back to here (the last run may have been extended). */
    size_t mark_n, mark_owned;
    unsigned long mark_closed;
    long mark_j_last;
};


struct fi_phase {
    f_seq_func seq;
    void *arg;
    struct fi_runs *per_server;
    int any_server;  /* where the last F_ANY filament went, or -1 */
    struct fi_blocks owned;  /* argument blocks of variable-argument filaments */
    int adapt;       /* f_set_adaptive's mode when the phase was created */
    /* The run's placement where they do (begin_run; adapt.c), else NULL:
     * each server passes over its own runs. */
    struct fi_adapt *placed;
};

F_API struct f_run_ **f_iter_last_;
F_API unsigned f_iter_open_;

/* Filaments of the phase on one server. */
static unsigned long filaments(const struct fi_runs *rs)
{
    return rs->closed + (rs->n > 0 ? fi_row_points(&rs->run[rs->n - 1]) : 0);
}

static int cursors_alloc(const struct fi_env *env)
{
    fi_lib.adapt = env->adapt;
    fi_lib.adapt_off = env->adapt == F_ADAPT_NONE;
    fi_lib.adapt_force = env->test_moves;
    f_iter_last_ = fi_alloc((size_t)fi_lib.nservers * sizeof *f_iter_last_);
    return f_iter_last_ != NULL ? F_OK : F_ENOMEM;
}

static void cursors_free(void)
{
    f_iter_open_ = 0;
    fi_free(f_iter_last_);
    f_iter_last_ = NULL;
}

/* Open the inline path to the main thread (between runs), or close it.
 * Only the last phase's runs may be extended. */
void fi_phase_cursors_open(int open)
{
    for (int s = 0; s < fi_lib.nservers; ++s) {
        struct fi_runs *rs = fi_lib.nphases > 0 ? &fi_lib.phases[fi_lib.nphases - 1].per_server[s]
                                                : NULL;
        f_iter_last_[s] = rs != NULL && rs->n > 0 ? (struct f_run_ *)&rs->run[rs->n - 1] : NULL;
    }
    f_iter_open_ = open ? (unsigned)fi_lib.nservers : 0;
}

f_seq_func fi_phase_seq(int phase, void **arg)
{
    *arg = fi_lib.phases[phase].arg;
    return fi_lib.phases[phase].seq;
}

/* Free the blocks past the first `keep`. */
static void free_blocks(struct fi_blocks *b, size_t keep)
{
    while (b->n > keep)
        fi_free(b->block[--b->n]);
    if (keep == 0) {
        fi_free(b->block);
        *b = (struct fi_blocks){ NULL, 0, 0 };
    }
}

/* Each run consumes the phases created before it. */
static void phases_free(void)
{
    for (int p = 0; p < fi_lib.nphases; ++p) {
        struct fi_phase *ph = &fi_lib.phases[p];
        for (int s = 0; s < fi_lib.nservers; ++s) {
            free_blocks(&ph->per_server[s].owned, 0);
            fi_free(ph->per_server[s].run);
        }
        fi_free(ph->per_server);
        free_blocks(&ph->owned, 0);
        fi_adapt_free(ph->placed);
    }
    fi_free(fi_lib.phases);
    fi_lib.phases = NULL;
    fi_lib.nphases = fi_lib.phases_cap = fi_lib.phases_placed = 0;
}

int f_new_barrier(f_seq_func seq, void *arg)
{
    if (fi_check_main_between_runs() < 0)
        return F_ESTATE;
    size_t cap = (size_t)fi_lib.phases_cap;
    if (fi_grow((void **)&fi_lib.phases, &cap, (size_t)fi_lib.nphases, sizeof *fi_lib.phases) < 0)
        return F_ENOMEM;
    fi_lib.phases_cap = (int)cap;
    size_t bytes = (size_t)fi_lib.nservers * sizeof(struct fi_runs);
    struct fi_runs *per_server = fi_alloc_aligned(bytes);
    if (per_server == NULL)
        return F_ENOMEM;
    memset(per_server, 0, bytes);
    fi_lib.phases[fi_lib.nphases] = (struct fi_phase){ .seq = seq,
                                                       .arg = arg,
                                                       .per_server = per_server,
                                                       .any_server = -1,
                                                       .adapt = fi_lib.adapt };
    int id = fi_lib.nphases++;
    fi_phase_cursors_open(1);    /* the new phase has no runs yet */
    return id;
}

/* Which filaments of the phases created from now on may move (adapt.c):
 * from the main thread between runs, as the phases are created. */
int f_set_adaptive(int mode)
{
    if (fi_check_main_between_runs() < 0)
        return F_ESTATE;
    if (mode != F_ADAPT_NONE && mode != F_ADAPT_ANY && mode != F_ADAPT_ALL)
        return F_EINVAL;
    fi_lib.adapt = mode;
    return F_OK;
}

int f_get_adaptive(void)
{
    return fi_state() != FI_UNINIT ? fi_lib.adapt : F_ESTATE;
}

static int extends(const struct fi_runs *rs, f_func fn, long i, long j, void *arg)
{
    if (rs->n == 0)
        return 0;
    const struct fi_row *last = &rs->run[rs->n - 1];
    return last->fn == fn && last->i == i && last->arg == arg && last->j_last != LONG_MAX &&
           j == last->j_last + 1;
}

/*
 * F_ANY iterative filaments are placed once, at creation: a filament that
 * extends the last F_ANY run joins it, otherwise it starts a run on the
 * server with the fewest filaments in this phase.  In the run, they move
 * as other filaments of an adaptive phase do (adapt.c).
 */
static int place_any(struct fi_phase *ph, f_func fn, long i, long j, void *arg)
{
    if (ph->any_server >= 0 && extends(&ph->per_server[ph->any_server], fn, i, j, arg))
        return ph->any_server;
    int best = 0;
    for (int s = 1; s < fi_lib.nservers; ++s)
        if (filaments(&ph->per_server[s]) < filaments(&ph->per_server[best]))
            best = s;
    return best;
}

/* Add filaments j_first .. j_last of fn(i, ., arg) to a server's runs:
 * extend the last run, or start one; return the last run, or NULL when out
 * of memory (nothing added). */
static struct fi_row *append(struct fi_runs *rs, f_func fn, long i, long j_first, long j_last,
                             void *arg)
{
    if (extends(rs, fn, i, j_first, arg)) {
        rs->run[rs->n - 1].j_last = j_last;
        return &rs->run[rs->n - 1];
    }
    if (fi_grow((void **)&rs->run, &rs->cap, rs->n, sizeof *rs->run) < 0)
        return NULL;
    if (rs->n > 0)
        rs->closed += fi_row_points(&rs->run[rs->n - 1]);
    rs->run[rs->n++] = (struct fi_row){ fn, arg, i, j_first, j_last };
    return &rs->run[rs->n - 1];
}

/* From server me's creator (f_create_per_server): its own runs only, in the
 * last phase, which the main thread does not change meanwhile.  F_ANY
 * places the filaments where they are created. */
static int create_own(struct fi_server *me, int server, f_func fn, long i, long j_first,
                      long j_last, void *arg)
{
    if (fi_lib.nphases == 0)
        return F_ESTATE;
    if (fn == NULL || (server != F_ANY && fi_servers_check_index(server) < 0))
        return F_EINVAL;
    if (server != F_ANY && server != me->index)
        return F_ESTATE;    /* another server's runs: its own creator is writing them */
    if (j_last < j_first)
        return F_OK;
    struct fi_runs *rs = &fi_lib.phases[fi_lib.nphases - 1].per_server[me->index];
    struct fi_row *r = append(rs, fn, i, j_first, j_last, arg);
    if (r == NULL)
        return F_ENOMEM;
    rs->named = 1;  /* F_ANY from a creator goes to its server too (f_iterative_thread(3)) */
    f_creator_.last_run_ = (struct f_run_ *)r;  /* it may have moved */
    return F_OK;
}

/* Filaments j_first .. j_last (inclusive, so that one may be LONG_MAX) of
 * row i, as that many calls of f_iterative_thread in increasing j would
 * create them, or none (F_ANY: the row is placed as its first point is,
 * and the rest extends its run).  j_last < j_first: none, after the checks
 * that a call now with these arguments must pass. */
static int create(int server, f_func fn, long i, long j_first, long j_last, void *arg)
{
    struct fi_server *me = fi_self;
    if (me != NULL && me->creating)
        return fi_created(me, create_own(me, server, fn, i, j_first, j_last, arg));
    if (fi_check_main_between_runs() < 0 || fi_lib.nphases == 0)
        return F_ESTATE;
    if (fn == NULL || (server != F_ANY && fi_servers_check_index(server) < 0))
        return F_EINVAL;
    if (j_last < j_first)
        return F_OK;
    struct fi_phase *ph = &fi_lib.phases[fi_lib.nphases - 1];
    int named = server != F_ANY;
    if (!named)
        ph->any_server = server = place_any(ph, fn, i, j_first, arg);
    struct fi_row *r = append(&ph->per_server[server], fn, i, j_first, j_last, arg);
    if (r == NULL)
        return F_ENOMEM;
    ph->per_server[server].named |= named;
    f_iter_last_[server] = (struct f_run_ *)r;  /* it may have moved */
    return F_OK;
}

int (f_iterative_thread)(int server, f_func fn, long i, long j, void *arg)
{
    return create(server, fn, i, j, j, arg);
}

/*
 * A whole row in one call (beyond the paper): multigrid's phases at
 * n = 1024 hold 8.7 million filaments, whose creation point by point took
 * 248 million instructions (28 each, through the inline path), more than
 * its coarse-grain program's whole lead; row by row, 3.6 million
 * (callgrind, one server).  A row forms the run that its points, created
 * one by one, would form.
 */
int f_iterative_row(int server, f_func fn, long i, long j_begin, long j_end, void *arg)
{
    if (j_end > j_begin)
        return create(server, fn, i, j_begin, j_end - 1, arg);
    int rc = create(server, fn, i, 0, -1, arg);    /* no points: the checks only */
    if (rc == F_OK && j_end < j_begin)
        rc = fi_created(fi_self, F_EINVAL);
    return rc;
}

/* Where the last phase keeps the calling thread's argument blocks: the
 * phase's own, or, in a creator, the creating server's runs'. */
static struct fi_blocks *owned_blocks(void)
{
    struct fi_phase *ph = &fi_lib.phases[fi_lib.nphases - 1];
    struct fi_server *me = fi_self;
    return me != NULL && me->creating ? &ph->per_server[me->index].owned : &ph->owned;
}

int fi_phase_adopt(void *block)
{
    struct fi_blocks *b = owned_blocks();
    if (fi_grow((void **)&b->block, &b->cap, b->n, sizeof *b->block) < 0)
        return F_ENOMEM;
    b->block[b->n++] = block;
    return F_OK;
}

void fi_phase_disown_last(void)
{
    owned_blocks()->n--;
}

/* ------------------------------------------------- per-server creation */

/* Server me, on its own thread, before its creator runs (create.c): mark
 * its runs in the last phase and open its fast path to its last run. */
void fi_phase_creator_open(struct fi_server *me)
{
    f_creator_.last_run_ = NULL;
    if (fi_lib.nphases == 0)
        return;
    struct fi_runs *rs = &fi_lib.phases[fi_lib.nphases - 1].per_server[me->index];
    rs->mark_n = rs->n;
    rs->mark_closed = rs->closed;
    rs->mark_owned = rs->owned.n;
    rs->mark_j_last = rs->n > 0 ? rs->run[rs->n - 1].j_last : 0;
    if (rs->n > 0)
        f_creator_.last_run_ = (struct f_run_ *)&rs->run[rs->n - 1];
}

void fi_phase_creator_close(void)
{
    f_creator_.last_run_ = NULL;
}

/* The call failed: the main thread cuts server s's runs back to the mark. */
void fi_phase_creator_undo(struct fi_server *s)
{
    if (fi_lib.nphases == 0)
        return;
    struct fi_runs *rs = &fi_lib.phases[fi_lib.nphases - 1].per_server[s->index];
    rs->n = rs->mark_n;
    rs->closed = rs->mark_closed;
    if (rs->n > 0)
        rs->run[rs->n - 1].j_last = rs->mark_j_last;
    free_blocks(&rs->owned, rs->mark_owned);
}

/* ----------------------------------------------------------------- pass */

/*
 * One pass over a server's runs, in alternate directions [paper §4.4] -
 * unless the pass called a range version.  A range version walks its row
 * with j increasing, so a backward pass could reverse only the order of
 * the rows, and every row would begin a new stream for the hardware
 * prefetcher: Jacobi n=1024 ran 1.20 times the coarse-grain program so,
 * 1.02 with every pass forward.  Runs and range versions do not change
 * during a run, so a forward pass tells whether the next may go backward.
 */
void fi_phase_pass(struct fi_server *me, int phase)
{
    struct fi_adapt *placed = fi_lib.phases[phase].placed;
    if (placed != NULL) {
        me->stats.filaments_run += fi_adapt_pass(placed, me->index, me->trace);
        return;
    }
    struct fi_runs *rs = &fi_lib.phases[phase].per_server[me->index];
    int backward = rs->backward;
    int ranged = 0;
    if (rs->points_only)
        fi_rows_run_points(rs->run, rs->n, backward);
    else
        ranged = fi_rows_run(rs->run, rs->n, backward);
    rs->backward = !backward && !ranged;
    me->stats.filaments_run += rs->pass_filaments;
}

void fi_phase_pass_shape(const struct fi_server *me, int phase, int *backward,
                         unsigned long *filaments)
{
    const struct fi_phase *ph = &fi_lib.phases[phase];
    if (ph->placed != NULL) {
        fi_adapt_shape(ph->placed, me->index, backward, filaments);
        return;
    }
    const struct fi_runs *rs = &ph->per_server[me->index];
    *backward = rs->backward;
    *filaments = rs->pass_filaments;
}

void fi_phase_place_next(int phase, struct fi_trace_buf *trace)
{
    /* Cores traded since the last decision (handoff.c) swapped the
     * servers' speeds in the middle: the pass says nothing of them. */
    AO_t handoffs = AO_load(&fi_lib.handoffs);
    int traded = handoffs != fi_lib.handoffs_seen;
    fi_lib.handoffs_seen = handoffs;
    struct fi_adapt *placed = fi_lib.phases[phase].placed;
    if (placed != NULL)
        fi_adapt_passed(placed, phase, fi_lib.adapt_force, traded, trace);
}

/*
 * An adaptive phase's runs on one line, server 0's first, each server's
 * strip where creation put it (adapt.c); NULL where they stay: a phase
 * whose mode does not let its filaments move (F_ADAPT_NONE, or
 * FILAMENTS_ADAPT=none, which overrides the program's calls, or
 * F_ADAPT_ANY with a filament created for a named server or by a server's
 * creator, which runs there: f_iterative_thread(3)), one server, fewer than two runs a server
 * (nothing to move but whole strips: the empty barrier episode stays as
 * cheap as it was), or no memory for the line (the runs then stay where
 * they are, which is still right).
 */
static struct fi_adapt *place(const struct fi_phase *ph)
{
    size_t runs = 0;
    int named = 0;
    for (int s = 0; s < fi_lib.nservers; ++s) {
        runs += ph->per_server[s].n;
        named |= ph->per_server[s].named;
    }
    int moves = ph->adapt == F_ADAPT_ALL || (ph->adapt == F_ADAPT_ANY && !named);
    if (!moves || fi_lib.adapt_off || fi_lib.nservers < 2 || runs < 2 * (size_t)fi_lib.nservers)
        return NULL;
    struct fi_adapt *a = fi_adapt_new(runs, fi_lib.nservers);
    if (a == NULL)
        return NULL;
    size_t k = 0;
    for (int s = 0; s < fi_lib.nservers; ++s) {
        const struct fi_runs *rs = &ph->per_server[s];
        a->bound[s] = k;
        memcpy(a->run + k, rs->run, rs->n * sizeof *rs->run);
        k += rs->n;
    }
    a->bound[fi_lib.nservers] = k;
    fi_adapt_ready(a);
    return a;
}

/* The phases are fixed for the run: note what a pass runs, and place the
 * adaptive phases' runs. */
static void begin_run(void)
{
    int named = fi_range_versions_named();
    fi_lib.phases_placed = 0;
    for (int p = 0; p < fi_lib.nphases; ++p) {
        struct fi_phase *ph = &fi_lib.phases[p];
        for (int s = 0; s < fi_lib.nservers; ++s) {
            struct fi_runs *rs = &ph->per_server[s];
            rs->pass_filaments = filaments(rs);
            rs->points_only = !named && rs->pass_filaments == rs->n;
        }
        ph->placed = place(ph);
        fi_lib.phases_placed += ph->placed != NULL;
    }
}

/* f_finalize: the phases never run, then the cursors. */
static void phases_end(void)
{
    phases_free();
    cursors_free();
}

const struct fi_mechanism fi_phase_mechanism = { .alloc = cursors_alloc,
                                                 .ready = fi_phase_cursors_open,
                                                 .begin_run = begin_run,
                                                 .end_run = phases_free,
                                                 .free = phases_end };
