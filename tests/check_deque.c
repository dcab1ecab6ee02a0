/*
 * check_deque.c - suite "deque": the split deque of fork/join filaments,
 * white-box (lib/deque.h, lib/forkjoin.c, lib/steal.c; doc/design.md,
 * "Fork/join").
 *
 * The real library runs the schedules: servers that go idle ask for work
 * and steal, and filaments force the rest through the protocol's own entry
 * points - a request on their own server (ask_self) makes the next fork
 * publish, and a parent that spins until a child has started elsewhere
 * makes its join meet a stolen slot, then leapfrog.  Between the steps the
 * tests read the owner's words (bottom, base, split, ts) and check the
 * states that design.md allows; after every run, every deque must be empty
 * and clean: ts = (0, 0), no pruned result left, no slot still marked done
 * or stolen.  Every test runs at 1, 2, 4 and 8 servers (fj.h).
 */
#include "fj.h"

#include <sched.h>
#include <stdatomic.h>

#include "state.h"
#include "steal.h"

static struct fi_deque *my_deque(void)
{
    return &fi_self->deque;
}

/* What the owner may see of its own deque at any point in a filament. */
static void owner_invariants(void)
{
    struct fi_deque *d = my_deque();
    struct f_deque_ *o = d->own;
    AO_t ts = AO_load(&d->ts);
    FJ_REQUIRE(o == &f_deque_);
    FJ_REQUIRE(FI_TS_SPLIT(ts) == d->split);    /* only the owner moves split */
    FJ_REQUIRE(FI_TS_TOP(ts) <= d->split);
    FJ_REQUIRE(d->split <= fi_bottom(d));
    FJ_REQUIRE(fi_bottom(d) <= d->cap);
    FJ_REQUIRE(fi_base(d) <= fi_bottom(d));
    /* Public and stolen slots are marked, so that no inline pop takes one. */
    for (size_t k = 0; k < d->split; ++k)
        FJ_REQUIRE(fi_task_marked(&o->slot_[k]));
    AO_t limit = AO_load(fi_deque_limit(d));
    FJ_REQUIRE(limit == 0 || fi_slot_index(d, (struct f_task_ *)limit) <= d->cap);
    /* Private slots have never been claimed by a thief. */
    for (size_t k = d->split; k < fi_bottom(d); ++k)
        FJ_REQUIRE(AO_load(fi_task_done(&o->slot_[k])) == 0 &&
                   AO_load(fi_task_thief(&o->slot_[k])) == 0);
}

/* Between runs: every deque empty, and nothing left of its slots' use. */
static void deques_clean(void)
{
    for (int s = 0; s < f_num_servers(); ++s) {
        struct fi_deque *d = &fi_lib.servers[s].deque;
        AO_t ts = AO_load(&d->ts);
        ck_assert_msg(fi_bottom(d) == 0 && d->split == 0 && FI_TS_TOP(ts) == 0 &&
                          FI_TS_SPLIT(ts) == 0,
                      "server %d: bottom %zu split %zu ts (%zu, %zu) after a run", s,
                      fi_bottom(d), d->split, FI_TS_TOP(ts), FI_TS_SPLIT(ts));
        ck_assert_msg(d->npruned == 0, "server %d: %zu pruned results left after a run", s,
                      d->npruned);
        for (size_t k = 0; k < d->peak && k < d->cap; ++k)
            if (AO_load(fi_task_done(&d->own->slot_[k])) != 0 ||
                AO_load(fi_task_thief(&d->own->slot_[k])) != 0)
                ck_abort_msg("server %d slot %zu: done %lu thief %lu after a run", s, k,
                             (unsigned long)AO_load(fi_task_done(&d->own->slot_[k])),
                             (unsigned long)AO_load(fi_task_thief(&d->own->slot_[k])));
    }
}

/*
 * Make the calling server's next fork publish, as a thief's request does.
 * A request of its own changes nothing where a thief's stands, and that
 * thief may not have zeroed the bounds yet (it sets splitreq first): so
 * the owner zeroes them itself, which is always safe (a zero only sends
 * the next fork to the library, which sees splitreq).
 */
static void ask_self(void)
{
    fi_steal_request(fi_self);
    AO_store(fi_deque_limit(my_deque()), 0);
    AO_store(fi_deque_peak(my_deque()), 0);
}

/* Wait, in a filament, for another server to do something. */
static void await(atomic_int *flag)
{
    while (atomic_load(flag) == 0)
        sched_yield();
}

/* ----------------------------------------------- the owner's own steps */

static atomic_int order[16], order_next;

static void note(long k, long unused, void *unused2)
{
    order[atomic_fetch_add(&order_next, 1)] = (int)k;
}

/*
 * Publish and take back, step by step (prune 0).  With one server the
 * states are exact; with thieves only the owner's invariants hold.
 */
static void publish_steps(long unused, long unused2, void *unused3)
{
    struct fi_deque *d = my_deque();
    int alone = f_num_servers() == 1;
    size_t base = fi_base(d);
    owner_invariants();
    if (alone)
        FJ_REQUIRE(fi_bottom(d) == base && d->split == base);
    for (long k = 0; k < 4; ++k)
        FJ_REQUIRE(f_fork(note, k, 0, NULL) == F_OK);
    owner_invariants();
    if (alone)
        FJ_REQUIRE(fi_bottom(d) == base + 4 && d->split == base);

    /* A thief's request: the limit drops to 0 and the next fork publishes
     * half of the private slots (here 4: two) before it pushes. */
    ask_self();
    FJ_REQUIRE(AO_load(&d->splitreq) == 1 || !alone);
    FJ_REQUIRE(AO_load(fi_deque_limit(d)) == 0 || !alone);
    FJ_REQUIRE(f_fork(note, 4, 0, NULL) == F_OK);
    owner_invariants();
    if (alone) {
        AO_t ts = AO_load(&d->ts);
        FJ_REQUIRE(AO_load(&d->splitreq) == 0);
        FJ_REQUIRE(d->split == base + 2 && FI_TS_SPLIT(ts) == base + 2 && FI_TS_TOP(ts) == base);
        FJ_REQUIRE(fi_bottom(d) == base + 5);
        FJ_REQUIRE(AO_load(fi_deque_limit(d)) != 0);
    }
    /* Again: three private slots, two more public. */
    ask_self();
    FJ_REQUIRE(f_fork(note, 5, 0, NULL) == F_OK);
    owner_invariants();
    if (alone)
        FJ_REQUIRE(d->split == base + 4 && fi_bottom(d) == base + 6);

    /* The join pops the private ones and takes the public ones back. */
    FJ_REQUIRE(f_join() == F_OK);
    owner_invariants();
    FJ_REQUIRE(fi_bottom(d) == base && d->split <= base);
    FJ_REQUIRE(atomic_load(&order_next) == 6);
    if (alone)    /* newest first */
        for (int k = 0; k < 6; ++k)
            FJ_REQUIRE(order[k] == 5 - k);

    /* A request with nothing private stands until the fork that follows,
     * which then publishes its own slot. */
    ask_self();
    FJ_REQUIRE(f_fork(note, 6, 0, NULL) == F_OK);
    owner_invariants();
    if (alone) {
        FJ_REQUIRE(AO_load(&d->splitreq) == 0);
        FJ_REQUIRE(d->split == base + 1 && fi_bottom(d) == base + 1);
    }
    FJ_REQUIRE(f_join() == F_OK);
    owner_invariants();
    FJ_REQUIRE(fi_bottom(d) == base && atomic_load(&order_next) == 7);
}

/* Run one root on loop index i's servers, pruning off, and check that
 * the deques are clean after it. */
static void run_steps(int i, f_func root)
{
    FJ_START(i);
    f_set_prune(0);
    ck_assert_int_eq(f_fork(root, 0, 0, NULL), F_OK);
    ck_assert_int_eq(fj_parallel(), F_OK);
    deques_clean();
}

START_TEST(test_deque_publish_steps)
{
    run_steps(_i, publish_steps);
}
END_TEST

/*
 * A thief's request stops typed forks too: it zeroes their bound (peak_)
 * as well as the untyped one, so the next typed fork goes through the
 * library and publishes.  Typed children forked and synced in reverse.
 */
static long typed_value(f_frame fr, long k, long unused, void *unused2)
{
    return 10 * k;
}

static void typed_publish_steps(long unused, long unused2, void *unused3)
{
    struct fi_deque *d = my_deque();
    int alone = f_num_servers() == 1;
    size_t base = fi_base(d);
    f_frame fr = f_frame_here();
    for (long k = 0; k < 4; ++k)
        FJ_REQUIRE(f_fork_long(&fr, typed_value, k, 0, NULL) == F_OK);
    if (alone)
        FJ_REQUIRE(fi_bottom(d) == base + 4 && d->split == base);
    ask_self();
    FJ_REQUIRE(AO_load(fi_deque_peak(d)) == 0 || !alone);
    FJ_REQUIRE(f_fork_long(&fr, typed_value, 4, 0, NULL) == F_OK);
    owner_invariants();
    if (alone) {
        FJ_REQUIRE(AO_load(&d->splitreq) == 0);
        FJ_REQUIRE(d->split == base + 2 && fi_bottom(d) == base + 5);
        FJ_REQUIRE(AO_load(fi_deque_peak(d)) != 0 && AO_load(fi_deque_limit(d)) != 0);
    }
    FJ_REQUIRE(fr == d->own->bottom_);
    for (long k = 4; k >= 0; --k)
        FJ_REQUIRE(f_sync_long(&fr, typed_value) == 10 * k);
    owner_invariants();
    FJ_REQUIRE(fi_bottom(d) == base && d->split <= base);
}

START_TEST(test_deque_typed_publish_steps)
{
    run_steps(_i, typed_publish_steps);
}
END_TEST

/*
 * A typed fork with j = 0 and arg = NULL, constants where it is compiled:
 * whatever runs the slot must pass 0 and NULL, not what an earlier fork
 * left there (a fork that stored neither, with a flag in the word, was
 * how the library once saved those stores).  Each slot is first used by a
 * fork with arguments, then by one without, which runs by the inline sync,
 * by a sync that names another function (the library), or, published and
 * waited for, by a thief where there is one; a child run elsewhere reports
 * what it saw through noargs_bad, as it has no argument to do so.
 */
static atomic_int noargs_stolen, noargs_bad;

static long args_echo(f_frame fr, long k, long j, void *arg)
{
    if (j != 0 || arg != NULL)
        atomic_store(&noargs_bad, 1);
    return k;
}

/* The forks with arguments, which leave them in the slots. */
static long args_given(f_frame fr, long k, long j, void *arg)
{
    return k;
}

static long args_other(f_frame fr, long k, long j, void *arg)
{
    return -1;
}

static long args_elsewhere(f_frame fr, long k, long j, void *arg)
{
    if (f_my_server() != (int)k)
        atomic_store(&noargs_stolen, 1);
    return args_echo(fr, k, j, arg);
}

static void noargs_steps(long unused, long unused2, void *unused3)
{
    static long stale;
    struct fi_deque *d = my_deque();
    f_frame fr = f_frame_here();
    long me = f_my_server();
    for (long k = 0; k < 2; ++k)
        FJ_REQUIRE(f_fork_long(&fr, args_given, k, 7, &stale) == F_OK);
    for (long k = 1; k >= 0; --k)
        FJ_REQUIRE(f_sync_long(&fr, args_given) == k);
    FJ_REQUIRE(f_fork_long(&fr, args_echo, 5, 0, NULL) == F_OK);
    FJ_REQUIRE(f_sync_long(&fr, args_echo) == 5);
    FJ_REQUIRE(f_fork_long(&fr, args_echo, 6, 0, NULL) == F_OK);
    FJ_REQUIRE(f_sync_long(&fr, args_other) == 6);    /* by the library */
    FJ_REQUIRE(f_fork_long(&fr, args_elsewhere, me, 0, NULL) == F_OK);
    ask_self();
    FJ_REQUIRE(f_fork_long(&fr, args_given, 8, 7, &stale) == F_OK);    /* publishes the first */
    owner_invariants();
    FJ_REQUIRE(d->split > fi_base(d));
    if (f_num_servers() > 1)
        await(&noargs_stolen);
    FJ_REQUIRE(f_sync_long(&fr, args_given) == 8);
    FJ_REQUIRE(f_sync_long(&fr, args_elsewhere) == me);
    FJ_REQUIRE(atomic_load(&noargs_bad) == 0);
    owner_invariants();
}

START_TEST(test_deque_typed_noargs_steps)
{
    atomic_store(&noargs_stolen, 0);
    atomic_store(&noargs_bad, 0);
    run_steps(_i, noargs_steps);
    ck_assert_int_eq(atomic_load(&noargs_bad), 0);
}
END_TEST

/*
 * The marks that keep the inline pops off a slot (doc/design.md,
 * "Fork/join").  A filament that the library runs with its frame at its
 * base finds the slot below marked, even where that slot holds a typed
 * fork of the very function its spurious sync names, and the mark comes
 * off when it returns: the parent's next sync is inline again.  A public
 * slot that a join takes back loses its mark.
 */
static long guard_value(f_frame fr, long k, long unused, void *unused2)
{
    return k;
}

static long guard_child(f_frame fr, long k, long unused, void *unused2)
{
    struct fi_deque *d = my_deque();
    FJ_REQUIRE(fr == d->own->base_ && fr == d->own->bottom_);
    FJ_REQUIRE(fi_task_marked(fr - 1));
    FJ_REQUIRE(f_sync_long(&fr, guard_value) == 0);    /* nothing of its own to sync */
    return k;
}

static void guard_steps(long unused, long unused2, void *unused3)
{
    struct fi_deque *d = my_deque();
    f_frame fr = f_frame_here();
    size_t b = fi_bottom(d);
    FJ_REQUIRE(f_fork_long(&fr, guard_value, 1, 0, NULL) == F_OK);
    FJ_REQUIRE(f_fork_long(&fr, guard_child, 2, 0, NULL) == F_OK);
    FJ_REQUIRE(f_sync_long(&fr, guard_value) == 2);    /* names another: the library runs it */
    FJ_REQUIRE(fi_bottom(d) == b + 1);
    FJ_REQUIRE(b < d->split || !fi_task_marked(&d->own->slot_[b]));    /* unless a thief asked */
    FJ_REQUIRE(f_sync_long(&fr, guard_value) == 1);
    owner_invariants();
}

START_TEST(test_deque_base_guard_steps)
{
    run_steps(_i, guard_steps);
}
END_TEST

static atomic_int untyped_ran;

static void count_untyped(long unused, long unused2, void *unused3)
{
    atomic_fetch_add(&untyped_ran, 1);
}

static void take_back_steps(long unused, long unused2, void *unused3)
{
    struct fi_deque *d = my_deque();
    f_frame fr = f_frame_here();
    size_t b = fi_bottom(d);
    FJ_REQUIRE(f_fork(count_untyped, 0, 0, NULL) == F_OK);
    fr = f_frame_here();
    FJ_REQUIRE(f_fork_long(&fr, guard_value, 1, 0, NULL) == F_OK);
    ask_self();
    FJ_REQUIRE(f_fork_long(&fr, guard_value, 2, 0, NULL) == F_OK);    /* publishes slot b */
    owner_invariants();
    FJ_REQUIRE(d->split > b);
    FJ_REQUIRE(f_join() == F_OK);    /* takes b back, or waits for its thief */
    FJ_REQUIRE(atomic_load(&untyped_ran) == 1);
    owner_invariants();
    for (size_t k = d->split; k < fi_bottom(d); ++k)
        FJ_REQUIRE(!fi_task_marked(&d->own->slot_[k]));
    FJ_REQUIRE(f_sync_long(&fr, guard_value) == 2);
    FJ_REQUIRE(f_sync_long(&fr, guard_value) == 1);
    owner_invariants();
}

START_TEST(test_deque_take_back_steps)
{
    atomic_store(&untyped_ran, 0);
    run_steps(_i, take_back_steps);
    ck_assert_int_eq(atomic_load(&untyped_ran), 1);
}
END_TEST

/* Under F_PRUNE_AUTO a server prunes once it holds FI_PRUNE_DEPTH children,
 * but not while a thief's request stands: that fork publishes half of the
 * private ones first, and is then pruned, as the server holds as many. */
static atomic_int ran_now;

static void mark_now(long unused, long unused2, void *unused3)
{
    atomic_fetch_add(&ran_now, 1);
}

static void auto_steps(long unused, long unused2, void *unused3)
{
    struct fi_deque *d = my_deque();
    struct f_deque_ *o = d->own;
    size_t base = fi_base(d);
    unsigned long pruned = o->pruned_;
    for (int k = 0; k < FI_PRUNE_DEPTH; ++k)
        FJ_REQUIRE(f_fork(mark_now, 0, 0, NULL) == F_OK);
    owner_invariants();
    if (f_num_servers() == 1) {
        FJ_REQUIRE(atomic_load(&ran_now) == 0 && o->pruned_ == pruned);
        FJ_REQUIRE(f_fork(mark_now, 0, 0, NULL) == F_OK);    /* pruned: a call */
        FJ_REQUIRE(atomic_load(&ran_now) == 1 && o->pruned_ == pruned + 1);
        FJ_REQUIRE(fi_bottom(d) == base + FI_PRUNE_DEPTH);
        ask_self();
        FJ_REQUIRE(f_fork(mark_now, 0, 0, NULL) == F_OK);    /* published, pruned */
        FJ_REQUIRE(atomic_load(&ran_now) == 2 && o->pruned_ == pruned + 2);
        FJ_REQUIRE(fi_bottom(d) == base + FI_PRUNE_DEPTH);
        FJ_REQUIRE(d->split == base + (FI_PRUNE_DEPTH + 1) / 2);
        FJ_REQUIRE(AO_load(&d->splitreq) == 0);
        owner_invariants();
    }
    FJ_REQUIRE(f_join() == F_OK);
    owner_invariants();
    FJ_REQUIRE(fi_bottom(d) == base);
}

START_TEST(test_deque_auto_prune_steps)
{
    FJ_START(_i);
    ck_assert_int_eq(f_get_prune(), F_PRUNE_AUTO);
    ck_assert_int_eq(f_fork(auto_steps, 0, 0, NULL), F_OK);
    ck_assert_int_eq(fj_parallel(), F_OK);
    deques_clean();
}
END_TEST

/* A typed child that its sync calls runs as a call would, as part of the
 * filament that synced it (f_fork(3)): its children begin at its frame,
 * the bottom as it finds it; its join pops its own children and may run
 * its callers' untyped children too, never those below the filament that
 * the library started; each child runs once.  (An untyped child runs as a
 * filament of its own: fi_task_run and the inline join; see design.md,
 * "Inline fast paths".) */
static atomic_int parent_child_ran, own_child_ran;

static void parent_child(long unused, long unused2, void *unused3)
{
    atomic_fetch_add(&parent_child_ran, 1);
}

static void own_child(long unused, long unused2, void *unused3)
{
    atomic_fetch_add(&own_child_ran, 1);
}

static long typed_child(f_frame fr, long unused, long unused2, void *out)
{
    struct fi_deque *d = my_deque();
    long *seen = out;
    size_t bottom = fi_bottom(d);
    seen[0] = fr == d->own->bottom_;             /* 1: its frame is the bottom */
    FJ_REQUIRE(f_fork(own_child, 0, 0, NULL) == F_OK);
    FJ_REQUIRE(f_join() == F_OK);
    seen[1] = atomic_load(&own_child_ran);      /* 1: its join ran its own child */
    seen[2] = fi_bottom(d) <= bottom && fi_bottom(d) >= fi_base(d);
    return 9;
}

static void typed_base_parent(long unused, long unused2, void *out)
{
    long *seen = out;
    f_frame fr = f_frame_here();
    FJ_REQUIRE(f_fork(parent_child, 0, 0, NULL) == F_OK);
    FJ_REQUIRE(f_fork_long(&fr, typed_child, 0, 0, out) == F_OK);
    FJ_REQUIRE(f_sync_long(&fr, typed_child) == 9);
    FJ_REQUIRE(f_join() == F_OK);
    seen[3] = atomic_load(&parent_child_ran);   /* 1: once, by one join or the other */
}

START_TEST(test_deque_typed_child_base)
{
    FJ_START(_i);
    f_set_prune(0);
    atomic_store(&parent_child_ran, 0);
    atomic_store(&own_child_ran, 0);
    long seen[4] = { -1, -1, -1, -1 };
    ck_assert_int_eq(f_fork(typed_base_parent, 0, 0, seen), F_OK);
    ck_assert_int_eq(fj_parallel(), F_OK);
    deques_clean();
    ck_assert_msg(seen[0] == 1 || f_num_servers() > 1,
                  "a typed child's frame was not the bottom of the deque");
    ck_assert_msg(seen[1] == 1 && seen[2] == 1 && seen[3] == 1,
                  "a typed child's join: own child ran %ld time(s) (1), bottom within its "
                  "filament's %ld (1), parent's child ran %ld time(s) (1)",
                  seen[1], seen[2], seen[3]);
}
END_TEST

/* ------------------------------------------- children, stolen or not */

#define KIDS 64

struct family {
    atomic_int count[KIDS];
    long result[KIDS];
    int parent_server;
    atomic_int elsewhere;    /* children that started on another server */
    long seed;
};

static void kid(long k, long unused, void *arg)
{
    struct family *f = arg;
    if (f_my_server() != f->parent_server)
        atomic_fetch_add(&f->elsewhere, 1);
    fj_spin(100 + (int)(k % 7) * 50);
    atomic_fetch_add(&f->count[k], 1);
    f->result[k] = k * k + f->seed;    /* lands in the parent's frame */
}

/* Fork KIDS children, each counted once, results in the parent's frame;
 * `request`: publish at every fork, so that the join takes back many. */
static void family_root(long seed, long request, void *unused)
{
    struct family f;
    memset(&f, 0, sizeof f);
    f.parent_server = f_my_server();
    f.seed = seed;
    struct fi_deque *d = my_deque();
    size_t base = fi_base(d);
    owner_invariants();
    for (long k = 0; k < KIDS; ++k) {
        if (request)
            ask_self();
        FJ_REQUIRE(f_fork(kid, k, 0, &f) == F_OK);
    }
    owner_invariants();
    FJ_REQUIRE(f_join() == F_OK);
    owner_invariants();
    FJ_REQUIRE(fi_bottom(d) == base);
    for (long k = 0; k < KIDS; ++k) {
        FJ_REQUIRE(atomic_load(&f.count[k]) == 1);
        FJ_REQUIRE(f.result[k] == k * k + seed);
    }
}

START_TEST(test_deque_children_once)
{
    FJ_START(_i);
    f_set_prune(fj_variant(_i) % 3 == 2 ? F_PRUNE_AUTO : 0);
    for (long r = 0; r < 2; ++r)
        ck_assert_int_eq(f_fork(family_root, _i * 2 + r, fj_variant(_i) % 3 == 1, NULL), F_OK);
    ck_assert_int_eq(fj_parallel(), F_OK);
    deques_clean();
}
END_TEST

/*
 * Forced steals: the parent publishes every child, then waits until one
 * has started on another server before it joins, so its join meets a
 * stolen slot (and takes the rest back, or finds them stolen too).  Untyped
 * children by pointer, or typed ones synced in reverse.  The first untyped
 * child to start elsewhere forks grandchildren the same way and waits
 * until one of them has started on a server other than its own: with two
 * servers, that is the parent's server leapfrogging while it waits for the
 * child.  (A typed child that forks and joins is test_deque_typed_child_base
 * and test_deque_typed_join_on_leapfrog.)
 */
struct forced {
    int parent_server;
    atomic_int stolen;      /* a child has started elsewhere */
    atomic_int leader;      /* the first such child claimed the grandchildren */
    atomic_int count[KIDS];
    atomic_int gcount[KIDS];
    long result[KIDS];
};

struct gctx {
    struct forced *f;
    int server;
    atomic_int elsewhere;
};

static void grandkid(long k, long unused, void *arg)
{
    struct gctx *g = arg;
    if (f_my_server() != g->server)
        atomic_store(&g->elsewhere, 1);
    atomic_fetch_add(&g->f->gcount[k], 1);
}

static void lead(struct forced *f)
{
    struct gctx g = { f, f_my_server(), 0 };
    for (long k = 0; k < KIDS; ++k) {
        ask_self();
        FJ_REQUIRE(f_fork(grandkid, k, 0, &g) == F_OK);
    }
    await(&g.elsewhere);
    FJ_REQUIRE(f_join() == F_OK);
    for (long k = 0; k < KIDS; ++k)
        FJ_REQUIRE(atomic_load(&f->gcount[k]) == 1);
}

static long forced_kid_long(f_frame fr, long k, long unused, void *arg)
{
    struct forced *f = arg;
    if (f_my_server() != f->parent_server)
        atomic_store(&f->stolen, 1);
    atomic_fetch_add(&f->count[k], 1);
    return 3 * k + 1;
}

static void forced_kid(long k, long unused, void *arg)
{
    f_frame fr = f_frame_here();
    struct forced *f = arg;
    if (f_my_server() != f->parent_server) {
        atomic_store(&f->stolen, 1);
        if (atomic_exchange(&f->leader, 1) == 0)
            lead(f);
    }
    f->result[k] = forced_kid_long(fr, k, 0, arg);
}

static void forced_root(long typed, long unused, void *unused2)
{
    f_frame fr = f_frame_here();
    struct forced f;
    memset(&f, 0, sizeof f);
    f.parent_server = f_my_server();
    for (long k = 0; k < KIDS; ++k) {
        ask_self();
        if (typed)
            FJ_REQUIRE(f_fork_long(&fr, forced_kid_long, k, 0, &f) == F_OK);
        else
            FJ_REQUIRE(f_fork(forced_kid, k, 0, &f) == F_OK);
    }
    owner_invariants();
    if (f_num_servers() > 1)
        await(&f.stolen);
    if (typed) {
        for (long k = KIDS - 1; k >= 0; --k) {
            long v = f_sync_long(&fr, forced_kid_long);
            FJ_REQUIRE(v == 3 * k + 1);
        }
    } else {
        FJ_REQUIRE(f_join() == F_OK);
        for (long k = 0; k < KIDS; ++k)
            FJ_REQUIRE(f.result[k] == 3 * k + 1);
    }
    owner_invariants();
    for (long k = 0; k < KIDS; ++k)
        FJ_REQUIRE(atomic_load(&f.count[k]) == 1);
    if (f_num_servers() > 1 && !typed)
        FJ_REQUIRE(atomic_load(&f.leader) == 1);
}

START_TEST(test_deque_forced_steals)
{
    FJ_START(_i);
    f_set_prune(fj_variant(_i) % 4 < 2 ? 0 : F_PRUNE_AUTO);
    ck_assert_int_eq(f_fork(forced_root, fj_variant(_i) % 2, 0, NULL), F_OK);
    ck_assert_int_eq(fj_parallel(), F_OK);
    deques_clean();
}
END_TEST

/* ----------------------------------- a tree, invariants at every step */

static atomic_long tree_leaves;

static void tree(long depth, long typed, void *out);

static long tree_long(f_frame fr, long depth, long typed, void *unused)
{
    long r;
    tree(depth, typed, &r);
    return r;
}

/* The owner's invariants, and one more where the caller holds a frame
 * from f_frame_here: no sync of it pops below its base, whose slot below
 * is marked if the frame is the base (doc/design.md, "Fork/join"). */
static void frame_invariants(void)
{
    struct fi_deque *d = my_deque();
    owner_invariants();
    size_t base = fi_base(d);
    FJ_REQUIRE(base == 0 || fi_bottom(d) != base || fi_task_marked(&d->own->slot_[base - 1]));
}

/* A binary tree: invariants at entry, after the forks and after the join;
 * after the join the calling filament has no untyped child left.  Its
 * children are typed (typed 1), untyped (0), or one of each (2: the typed
 * fork first, so that its sync runs the untyped child above it). */
static void tree(long depth, long typed, void *out)
{
    f_frame fr = f_frame_here();
    frame_invariants();
    if (depth == 0) {
        atomic_fetch_add(&tree_leaves, 1);
        *(long *)out = 1;
        return;
    }
    struct fi_deque *d = my_deque();
    size_t base = fi_base(d);
    long a = 0, b = 0;
    if (typed == 1) {
        FJ_REQUIRE(f_fork_long(&fr, tree_long, depth - 1, typed, NULL) == F_OK);
        FJ_REQUIRE(f_fork_long(&fr, tree_long, depth - 1, typed, NULL) == F_OK);
        frame_invariants();
        b = f_sync_long(&fr, tree_long);
        a = f_sync_long(&fr, tree_long);
    } else if (typed == 2) {
        FJ_REQUIRE(f_fork_long(&fr, tree_long, depth - 1, typed, NULL) == F_OK);
        FJ_REQUIRE(f_fork(tree, depth - 1, typed, &b) == F_OK);
        frame_invariants();
        a = f_sync_long(&fr, tree_long);
        FJ_REQUIRE(f_join() == F_OK);
        FJ_REQUIRE(fi_bottom(d) == base);
    } else {
        FJ_REQUIRE(f_fork(tree, depth - 1, typed, &a) == F_OK);
        FJ_REQUIRE(f_fork(tree, depth - 1, typed, &b) == F_OK);
        frame_invariants();
        FJ_REQUIRE(f_join() == F_OK);
        FJ_REQUIRE(fi_bottom(d) == base);
    }
    frame_invariants();
    *(long *)out = a + b;
}

START_TEST(test_deque_tree_invariants)
{
    FJ_START(_i);
    static const long modes[] = { 0, F_PRUNE_AUTO, 1, 0 };
    f_set_prune(modes[fj_variant(_i) % 4]);
    long r = -1, t = -1, m = -1;
    atomic_store(&tree_leaves, 0);
    ck_assert_int_eq(f_fork(tree, 10, 0, &r), F_OK);
    ck_assert_int_eq(f_fork(tree, 10, 1, &t), F_OK);
    ck_assert_int_eq(f_fork(tree, 10, 2, &m), F_OK);
    ck_assert_int_eq(fj_parallel(), F_OK);
    ck_assert_int_eq(r, 1024);
    ck_assert_int_eq(t, 1024);
    ck_assert_int_eq(m, 1024);
    ck_assert_int_eq(atomic_load(&tree_leaves), 3072);
    deques_clean();
}
END_TEST

/* ------------------------------- a typed child stolen by a leapfrogger */

/*
 * Two servers, step by step: root P forks X and waits until X has started
 * on the other server, then joins X, so that its server waits for X and
 * leapfrogs.  X forks the typed child T, publishes it and waits until T
 * has started on another server: P's, leapfrogging.  T forks a child M
 * that it never joins and returns.  M is T's child; it must run before
 * f_parallel returns (f_fork(3)), wherever T ran.
 */
static struct {
    atomic_int x_started, t_started, m_ran;
    int p_server, x_server;
} leap;

static void leap_m(long unused, long unused2, void *unused3)
{
    atomic_fetch_add(&leap.m_ran, 1);
}

static long leap_t(f_frame fr, long unused, long unused2, void *unused3)
{
    if (f_my_server() != leap.x_server)
        atomic_store(&leap.t_started, 1);
    FJ_REQUIRE(f_fork(leap_m, 0, 0, NULL) == F_OK);
    return 5;
}

static void leap_x(long unused, long unused2, void *unused3)
{
    f_frame fr = f_frame_here();
    leap.x_server = f_my_server();
    if (leap.x_server != leap.p_server)
        atomic_store(&leap.x_started, 1);
    ask_self();
    FJ_REQUIRE(f_fork_long(&fr, leap_t, 0, 0, NULL) == F_OK);
    if (leap.x_server != leap.p_server)
        await(&leap.t_started);
    FJ_REQUIRE(f_sync_long(&fr, leap_t) == 5);
}

static void leap_p(long unused, long unused2, void *unused3)
{
    leap.p_server = f_my_server();
    ask_self();
    FJ_REQUIRE(f_fork(leap_x, 0, 0, NULL) == F_OK);
    if (f_num_servers() > 1)
        await(&leap.x_started);
    FJ_REQUIRE(f_join() == F_OK);
}

START_TEST(test_deque_typed_leftover_on_leapfrog)
{
    FJ_START(_i);
    f_set_prune(0);
    memset(&leap, 0, sizeof leap);
    leap.p_server = leap.x_server = -1;
    ck_assert_int_eq(f_fork(leap_p, 0, 0, NULL), F_OK);
    ck_assert_int_eq(fj_parallel(), F_OK);
    ck_assert_msg(atomic_load(&leap.m_ran) == 1,
                  "the unjoined child of a typed filament that a leapfrogging server ran was "
                  "run %d times",
                  atomic_load(&leap.m_ran));
    deques_clean();
}
END_TEST

/*
 * The same steps, but T forks a child and joins it.  A typed child that
 * runs with its parent's base (test_deque_typed_child_base) joins down to
 * the slot of X, on which P's server, leapfrogging, is waiting: it waits
 * for X inside T, X waits for T, and nothing moves.
 */
static long leap_t_joins(f_frame fr, long unused, long unused2, void *unused3)
{
    if (f_my_server() != leap.x_server)
        atomic_store(&leap.t_started, 1);
    FJ_REQUIRE(f_fork(leap_m, 0, 0, NULL) == F_OK);
    FJ_REQUIRE(f_join() == F_OK);
    return 5;
}

static void leap_x_joins(long unused, long unused2, void *unused3)
{
    f_frame fr = f_frame_here();
    leap.x_server = f_my_server();
    if (leap.x_server != leap.p_server)
        atomic_store(&leap.x_started, 1);
    ask_self();
    FJ_REQUIRE(f_fork_long(&fr, leap_t_joins, 0, 0, NULL) == F_OK);
    if (leap.x_server != leap.p_server)
        await(&leap.t_started);
    FJ_REQUIRE(f_sync_long(&fr, leap_t_joins) == 5);
}

static void leap_p_joins(long unused, long unused2, void *unused3)
{
    leap.p_server = f_my_server();
    ask_self();
    FJ_REQUIRE(f_fork(leap_x_joins, 0, 0, NULL) == F_OK);
    if (f_num_servers() > 1)
        await(&leap.x_started);
    FJ_REQUIRE(f_join() == F_OK);
}

START_TEST(test_deque_typed_join_on_leapfrog)
{
    FJ_START(_i);
    f_set_prune(0);
    memset(&leap, 0, sizeof leap);
    leap.p_server = leap.x_server = -1;
    ck_assert_int_eq(f_fork(leap_p_joins, 0, 0, NULL), F_OK);
    /* Microseconds of work: a few seconds mean a deadlock. */
    ck_assert_int_eq(fj_parallel_within(5), F_OK);
    ck_assert_int_eq(atomic_load(&leap.m_ran), 1);
    deques_clean();
}
END_TEST

/* ------------------------------------------------- requests kept */

/*
 * A thief's request, once made (splitreq set, then both fork bounds
 * zeroed), stands until the owner publishes: the owner's raising a bound
 * after a slow path must never undo the zero, or the owner forks on
 * inline, never publishing, while every other thief sees splitreq set and
 * asks no more (a lost request: a parent that waits for a child to be
 * stolen waits for ever).  The owner forks and joins one child at a time,
 * so that thieves ask again after each publication, and their late zeroes
 * land on bounds that the owner is raising; after each join the request
 * is either answered or still made, once any thief halfway through making
 * it has finished (the wait).  Typed and untyped forks, for both bounds.
 */
static atomic_long kept_ran;

static void kept_kid(long unused, long unused2, void *unused3)
{
    atomic_fetch_add(&kept_ran, 1);
}

static long kept_kid_long(f_frame fr, long k, long unused, void *unused2)
{
    atomic_fetch_add(&kept_ran, 1);
    return k;
}

static void request_standing(struct fi_deque *d)
{
    for (int k = 0; k < 2000000; ++k) {
        if (AO_load(&d->splitreq) == 0 ||
            (AO_load(fi_deque_limit(d)) == 0 && AO_load(fi_deque_peak(d)) == 0))
            return;
        sched_yield();
    }
    FJ_REQUIRE(!"a thief's request was lost: splitreq is set and a fork bound is not zero");
}

static void kept_root(long rounds, long unused, void *unused2)
{
    struct fi_deque *d = my_deque();
    f_frame fr = f_frame_here();
    for (long r = 0; r < rounds; ++r) {
        FJ_REQUIRE(f_fork(kept_kid, 0, 0, NULL) == F_OK);
        FJ_REQUIRE(f_join() == F_OK);
        request_standing(d);
        FJ_REQUIRE(f_fork_long(&fr, kept_kid_long, r, 0, NULL) == F_OK);
        FJ_REQUIRE(f_sync_long(&fr, kept_kid_long) == r);
        request_standing(d);
    }
}

START_TEST(test_deque_requests_kept)
{
    const long rounds = 2000;
    FJ_START(_i);
    f_set_prune(0);
    atomic_store(&kept_ran, 0);
    ck_assert_int_eq(f_fork(kept_root, rounds, 0, NULL), F_OK);
    ck_assert_int_eq(fj_parallel(), F_OK);
    ck_assert_int_eq(atomic_load(&kept_ran), 2 * rounds);
    deques_clean();
}
END_TEST

/* -------------------------------------------------------------- suite */

/* Under ThreadSanitizer each loop index (a process of its own, with up to 8
 * servers) costs some 20 times more, and under AddressSanitizer this suite
 * took 263 s alone on 2 cores (2026-12-02): the stress loops run a tenth of
 * their indices under either, still every server count, as check_stress
 * runs a tenth of its seeds.  The normal build runs them all. */
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
#define STRESS(n) ((n) / 10)
#else
#define STRESS(n) (n)
#endif

Suite *make_suite(void)
{
    Suite *s = suite_create("deque");

    TCase *core = fj_tcase(s, "core");
    FJ_ADD(core, test_deque_publish_steps, 0, 8);
    FJ_ADD(core, test_deque_typed_publish_steps, 0, 8);
    FJ_ADD(core, test_deque_typed_noargs_steps, 0, 8);
    FJ_ADD(core, test_deque_base_guard_steps, 0, 8);
    FJ_ADD(core, test_deque_take_back_steps, 0, 16);
    FJ_ADD(core, test_deque_auto_prune_steps, 0, 8);
    FJ_ADD(core, test_deque_typed_child_base, 0, 4);
    FJ_ADD(core, test_deque_tree_invariants, 0, 32);
    FJ_ADD(core, test_deque_typed_leftover_on_leapfrog, 0, 16);
    FJ_ADD(core, test_deque_typed_join_on_leapfrog, 0, 4);

    TCase *stress = fj_tcase(s, "stress");
    FJ_ADD(stress, test_deque_children_once, 0, STRESS(1200));
    FJ_ADD(stress, test_deque_forced_steals, 0, STRESS(800));
    FJ_ADD(stress, test_deque_requests_kept, 0, STRESS(400));
    return s;
}
