/*
 * stats.h - statistics (stats.c): each server's struct f_stats, plain
 * increments by the owner (server.h), printed by f_finalize.
 */
#ifndef FI_STATS_H
#define FI_STATS_H

#include "base.h"

FI_HIDDEN extern const struct fi_mechanism fi_stats_mechanism;

#endif /* FI_STATS_H */
