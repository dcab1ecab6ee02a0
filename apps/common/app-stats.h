/*
 * app-stats.h - the library's fork/join counters on the output line of a
 * Filaments program (fib, knapsack, uts): forks= (made, pruned included),
 * pruned=, steals= and peak= (the most fork/join filaments queued or
 * running at once on one server), from f_get_stats() [paper §4.5].
 *
 * Apart from app.h, which is C only, because the problems that hold the
 * counters are declared in headers that the C++ peers include too; the
 * sequential programs include it as well, and it needs no <filaments.h>.
 */
#ifndef APP_STATS_H
#define APP_STATS_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

struct app_stats {
    int have;  /* set by app_stats_take(): the other programs print no counters */
    unsigned long forks, pruned, steals, peak;
};

/* After the run, before f_finalize(): the counters of all servers (F_ANY). */
void app_stats_take(struct app_stats *s);

/* " forks=N pruned=N steals=N peak=N" on out, if taken; else nothing. */
void app_stats_print(const struct app_stats *s, FILE *out);

#ifdef __cplusplus
}
#endif
#endif /* APP_STATS_H */
