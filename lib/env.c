/*
 * env.c - the environment variables, read in one place from one table.
 * A bad value makes f_initialize return F_EINVAL; nothing is clamped.
 *
 *   FILAMENTS_SERVERS  1..FI_MAX_SERVERS   servers when f_initialize gets <= 0
 *   FILAMENTS_PRUNE    auto | 0 | N>0      the fork/join pruning threshold
 *   FILAMENTS_STATS    0 | 1               print statistics at f_finalize
 *   FILAMENTS_BIND     0 | 1               run server k on one CPU (server.c);
 *                                          1 is refused where it cannot be done;
 *                                          unset: where servers = allowed CPUs
 *   FILAMENTS_DEQUE    2..2^31-1           fork/join slots per server
 *   FILAMENTS_TRACE    a path, not empty   record a schedule trace into it (trace.c)
 *   FILAMENTS_TRACE_EVENTS 1..2^24         spans each trace track holds
 *   FILAMENTS_ADAPT    none | any | all    which iterative filaments may move
 *                                          (f_set_adaptive; default any; none:
 *                                          whatever the program sets)
 *
 * Set by the program's MPI launcher, not by its user: the process's rank,
 * which names its trace's file (%r in FILAMENTS_TRACE) and process.  A value
 * that is not a rank is ignored.
 *
 *   OMPI_COMM_WORLD_RANK, PMIX_RANK, PMI_RANK  0..INT_MAX   Open MPI, PMIx, MPICH
 *
 * For the library's tests only, not part of its interface (doc/design.md,
 * "Testing the rare paths"): they make paths that real programs reach only
 * with millions of filaments or dozens of servers run in a small test.
 *
 *   FILAMENTS_TEST_CHUNK  MIN,MAX          RTC queue chunks: the first of MIN
 *                         1 <= MIN <= MAX <= FI_CHUNK_MAX  descriptors, doubling up to MAX
 *   FILAMENTS_TEST_FANIN  2..FI_BARRIER_FANIN  the barrier tree's fan-in
 *   FILAMENTS_TEST_MOVES  0 | 1            adaptive strips' ends move every pass
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "env.h"

/* A decimal integer in [lo, hi], nothing before or after it ("+3", " 3" and
 * "3 " are refused, as strtol alone would accept the first two). */
static int parse_long(const char *s, long lo, long hi, long *out)
{
    char *end;
    if (!(isdigit((unsigned char)s[0]) || (s[0] == '-' && isdigit((unsigned char)s[1]))))
        return F_EINVAL;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0' || v < lo || v > hi)
        return F_EINVAL;
    *out = v;
    return F_OK;
}

static int parse_servers(const char *s, struct fi_env *env)
{
    long v;
    int rc = parse_long(s, 1, FI_MAX_SERVERS, &v);
    env->servers = (int)v;
    return rc;
}

static int parse_prune(const char *s, struct fi_env *env)
{
    if (strcmp(s, "auto") == 0) {
        env->prune = F_PRUNE_AUTO;
        return F_OK;
    }
    return parse_long(s, 0, (long)(((unsigned long)-1) >> 1), &env->prune);
}

/* 0 or 1. */
static int parse_switch(const char *s, int *out)
{
    long v;
    int rc = parse_long(s, 0, 1, &v);
    *out = (int)v;
    return rc;
}

static int parse_stats(const char *s, struct fi_env *env)
{
    return parse_switch(s, &env->stats);
}

static int parse_adapt(const char *s, struct fi_env *env)
{
    static const char *const modes[] = { [F_ADAPT_NONE] = "none", [F_ADAPT_ANY] = "any",
                                         [F_ADAPT_ALL] = "all" };
    for (int m = 0; m < (int)(sizeof modes / sizeof *modes); ++m)
        if (strcmp(s, modes[m]) == 0) {
            env->adapt = m;
            return F_OK;
        }
    return F_EINVAL;
}

static int parse_test_moves(const char *s, struct fi_env *env)
{
    return parse_switch(s, &env->test_moves);
}

static int parse_bind(const char *s, struct fi_env *env)
{
    int rc = parse_switch(s, &env->bind);
#ifndef HAVE_PTHREAD_ATTR_SETAFFINITY_NP
    if (rc == F_OK && env->bind)
        return F_EINVAL;
#endif
    return rc;
}

/* The deque's indexes share one 64-bit word, 32 bits each (deque.h). */
static int parse_deque(const char *s, struct fi_env *env)
{
    return parse_long(s, 2, (1L << 31) - 1, &env->deque_slots);
}

/* Any path but the empty one: whether it can be written, trace.c finds out
 * (F_EIO). */
static int parse_trace(const char *s, struct fi_env *env)
{
    env->trace_path = s;
    return s[0] != '\0' ? F_OK : F_EINVAL;
}

static int parse_trace_events(const char *s, struct fi_env *env)
{
    return parse_long(s, 1, FI_TRACE_EVENTS_MAX, &env->trace_events);
}

/* Not the program's variables but its launcher's: a value that is not a
 * rank (another launcher's use of the name) is ignored, not an error, as a
 * program that traces nothing must not fail over it. */
static int parse_rank(const char *s, struct fi_env *env)
{
    long rank;
    if (parse_long(s, 0, INT_MAX, &rank) == F_OK)
        env->rank = rank;
    return F_OK;
}

static int parse_test_chunk(const char *s, struct fi_env *env)
{
    const char *comma = strchr(s, ',');
    char min[24];
    if (comma == NULL || (size_t)(comma - s) >= sizeof min)
        return F_EINVAL;
    memcpy(min, s, (size_t)(comma - s));
    min[comma - s] = '\0';
    if (parse_long(min, 1, FI_CHUNK_MAX, &env->chunk_min) < 0)
        return F_EINVAL;
    return parse_long(comma + 1, env->chunk_min, FI_CHUNK_MAX, &env->chunk_max);
}

/* The nodes have FI_BARRIER_FANIN child slots (barrier.c). */
static int parse_test_fanin(const char *s, struct fi_env *env)
{
    long v;
    int rc = parse_long(s, 2, FI_BARRIER_FANIN, &v);
    env->fanin = (int)v;
    return rc;
}

static const struct {
    const char *name;
    int (*parse)(const char *value, struct fi_env *env);
} variables[] = {
    { "FILAMENTS_SERVERS", parse_servers },
    { "FILAMENTS_PRUNE", parse_prune },
    { "FILAMENTS_STATS", parse_stats },
    { "FILAMENTS_BIND", parse_bind },
    { "FILAMENTS_DEQUE", parse_deque },
    { "FILAMENTS_TRACE", parse_trace },
    { "FILAMENTS_TRACE_EVENTS", parse_trace_events },
    { "FILAMENTS_ADAPT", parse_adapt },
    { "OMPI_COMM_WORLD_RANK", parse_rank },
    { "PMIX_RANK", parse_rank },
    { "PMI_RANK", parse_rank },
    { "FILAMENTS_TEST_CHUNK", parse_test_chunk },
    { "FILAMENTS_TEST_FANIN", parse_test_fanin },
    { "FILAMENTS_TEST_MOVES", parse_test_moves },
};

int fi_env_read(struct fi_env *env)
{
    *env = (struct fi_env){ .servers = 0, .prune = F_PRUNE_AUTO, .stats = 0, .bind = FI_BIND_AUTO,
                            .deque_slots = FI_DEQUE_SLOTS, .trace_path = NULL,
                            .trace_events = FI_TRACE_EVENTS, .rank = -1, .adapt = F_ADAPT_ANY,
                            .chunk_min = FI_CHUNK_MIN,
                            .chunk_max = FI_CHUNK_MAX, .fanin = FI_BARRIER_FANIN };
    for (size_t k = 0; k < sizeof variables / sizeof *variables; ++k) {
        const char *value = getenv(variables[k].name);
        if (value != NULL && variables[k].parse(value, env) < 0)
            return F_EINVAL;
    }
    return F_OK;
}
