/*
 * reduce.c - reductions over doubles: one padded slot per server, so a
 * filament folds its value into its own server's slot with no lock and no
 * shared line (the inline f_reduce in filaments.h); f_reduction_value()
 * combines the slots, in barrier code or after f_parallel [paper §2.2].
 */
#include <math.h>
#include <stddef.h>

#include "memory.h"
#include "state.h"

struct reduction_box {
    struct fi_owned owned;
    struct f_reduction r;
};

static double identity(enum f_op op)
{
    return op == F_SUM ? 0.0 : op == F_MIN ? INFINITY : -INFINITY;
}

static double combine(enum f_op op, double a, double b)
{
    switch (op) {
    case F_SUM: return a + b;
    case F_MIN: return b < a ? b : a;
    default: return b > a ? b : a;
    }
}

static void destroy(struct fi_owned *o)
{
    struct reduction_box *box = (struct reduction_box *)o;
    fi_free(box->r.slots_);
    fi_free(box);
}

f_reduction *f_new_reduction(enum f_op op)
{
    if (fi_check_main_between_runs() < 0 || (op != F_SUM && op != F_MIN && op != F_MAX))
        return NULL;
    struct reduction_box *box = fi_alloc(sizeof *box);
    if (box == NULL)
        return NULL;
    size_t stride;
    box->r.slots_ = fi_per_server_alloc(sizeof(double), &stride);
    if (box->r.slots_ == NULL) {
        fi_free(box);
        return NULL;
    }
    box->r.op_ = op;
    box->r.nslots_ = fi_lib.nservers;
    f_reduction_reset(&box->r);
    fi_owned_link(&box->owned, destroy);
    return &box->r;
}

void f_free_reduction(f_reduction *r)
{
    if (r == NULL || fi_check_main_between_runs() < 0)
        return;
    struct reduction_box *box = (struct reduction_box *)((char *)r - offsetof(struct reduction_box, r));
    fi_owned_unlink(&box->owned);
    destroy(&box->owned);
}

/* One double per cache line: the layout f_self_slot_ assumes. */
_Static_assert(FI_CACHE_LINE >= sizeof(double), "a slot fits a line");

static double *slot_of(const f_reduction *r, int server)
{
    return (double *)((char *)r->slots_ + (size_t)server * FI_CACHE_LINE);
}

void (f_reduce)(f_reduction *r, double v)
{
    f_reduce_inline_(r, v);
}

double *(f_reduction_local)(f_reduction *r)
{
    return r == NULL ? NULL : f_reduction_local(r);
}

double f_reduction_value(const f_reduction *r)
{
    if (r == NULL)
        return NAN;
    double v = identity(r->op_);
    for (int s = 0; s < r->nslots_; ++s)
        v = combine(r->op_, v, *slot_of(r, s));
    return v;
}

void f_reduction_reset(f_reduction *r)
{
    if (r == NULL)
        return;
    for (int s = 0; s < r->nslots_; ++s)
        *slot_of(r, s) = identity(r->op_);
}
