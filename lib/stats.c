/*
 * stats.c - per-server statistics: plain increments on each server's own
 * line, read by the program between runs (f_get_stats) or printed at
 * f_finalize when FILAMENTS_STATS=1.  The fork/join ones are the deque's:
 * forks counted in the slots they were made into, the filaments run
 * derived from them (deque.h).
 */
#include <stdio.h>
#include <string.h>

#include "stats.h"
#include "forkjoin.h"
#include "state.h"

static void add(struct f_stats *sum, const struct f_stats *s)
{
    sum->filaments_run += s->filaments_run;
    sum->forks += s->forks;
    sum->pruned_forks += s->pruned_forks;
    sum->steals += s->steals;
    sum->steal_attempts += s->steal_attempts;
    sum->barrier_episodes += s->barrier_episodes;
    sum->idle_ns += s->idle_ns;
    if (s->peak_live_forks > sum->peak_live_forks)
        sum->peak_live_forks = s->peak_live_forks;
}

/* The slots pushed on a deque: each slot counts the forks made into it
 * (an untyped one at its push, a typed one at its pop: none is live
 * between runs; struct f_task_), and no fork reaches past the peak
 * (deque.h). */
static unsigned long pushed(const struct fi_deque *d)
{
    unsigned long n = d->forks_moved;
    for (size_t k = 0; k < d->peak; ++k)
        n += d->own->slot_[k].forks_;
    return n;
}

/* One server's counters; the fork/join ones live in its deque. */
static struct f_stats of(const struct fi_server *s)
{
    const struct fi_deque *d = &s->deque;
    struct f_stats t = s->stats;
    unsigned long forks = pushed(d);
    /* Every slot pushed here, less the live ones, ran here or on a thief:
     * a filament counts where it ran. */
    t.filaments_run += forks + d->carried - d->lost - fi_bottom(d) + d->taken;
    t.forks = forks + d->own->pruned_;  /* pushed + pruned */
    t.pruned_forks = d->own->pruned_;
    t.peak_live_forks = d->peak;
    return t;
}

int f_get_stats(int server, struct f_stats *out)
{
    if (fi_check_main_between_runs() < 0)
        return F_ESTATE;
    if (out == NULL || (server != F_ANY && fi_servers_check_index(server) < 0))
        return F_EINVAL;
    if (server != F_ANY) {
        *out = of(&fi_lib.servers[server]);
        return F_OK;
    }
    memset(out, 0, sizeof *out);
    for (int s = 0; s < fi_lib.nservers; ++s) {
        struct f_stats t = of(&fi_lib.servers[s]);
        add(out, &t);
    }
    return F_OK;
}

int f_reset_stats(void)
{
    if (fi_check_main_between_runs() < 0)
        return F_ESTATE;
    for (int s = 0; s < fi_lib.nservers; ++s) {
        struct fi_server *t = &fi_lib.servers[s];
        memset(&t->stats, 0, sizeof t->stats);
        for (size_t k = 0; k < t->deque.peak; ++k)
            t->deque.own->slot_[k].forks_ = 0;
        t->deque.forks_moved = t->deque.own->pruned_ = 0;
        t->deque.lost = t->deque.taken = 0;
        t->deque.carried = t->deque.peak = fi_bottom(&t->deque);
        fi_forkjoin_bounds(&t->deque);
    }
    return F_OK;
}

static void print(void)
{
    fprintf(stderr, "filaments: %-6s %12s %10s %10s %10s %10s %10s %12s %10s\n", "server", "run",
            "forks", "pruned", "steals", "attempts", "barriers", "idle_ms", "peak_live");
    for (int s = 0; s < fi_lib.nservers; ++s) {
        struct f_stats u = of(&fi_lib.servers[s]);
        const struct f_stats *t = &u;
        fprintf(stderr, "filaments: %-6d %12lu %10lu %10lu %10lu %10lu %10lu %12.3f %10lu\n", s,
                t->filaments_run, t->forks, t->pruned_forks, t->steals, t->steal_attempts,
                t->barrier_episodes, t->idle_ns / 1e6, t->peak_live_forks);
    }
}

const struct fi_mechanism fi_stats_mechanism = { .print_stats = print };
