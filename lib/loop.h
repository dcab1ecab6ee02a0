/*
 * loop.h - parallel loops (loop.c): f_parallel_for and its kin.  Its
 * state is loop.c's own (the main thread's loop and its partials, kept
 * between calls); a main-thread loop reaches the servers through server.c's
 * team (fi_servers_team_post), and the life cycle frees what it keeps.
 */
#ifndef FI_LOOP_H
#define FI_LOOP_H

#include "base.h"

FI_HIDDEN extern const struct fi_mechanism fi_loop_mechanism;

#endif /* FI_LOOP_H */
