/*
 * handoff.c - cores traded to late servers (lib/handoff.c;
 * doc/model-check.md): the trading lock and each server's cpu field.
 *
 * Servers 0 and 1 have arrived at the barrier (their barrier_round
 * stored, relaxed, as barrier.c stores it) and wait: each looks
 * (fi_handoff_look) FI_MODEL_LOOKS times, as the waits of barrier.c do
 * while fi_lib.handoff is set.  Server 2 is late: it arrives (the same
 * store) at any point of theirs.  Every server's CPU clock stands still
 * and its status file says "R" (harness.h), so that a waiter that has
 * watched one that has not arrived, as far as it sees, trades cores with
 * it: with server 2, and with the other waiter where it has not seen that
 * one's arrival yet (the relaxed loads of arrived() race the stores).
 * Server 1's thread may not run on server 2's first CPU (a cpuset without
 * it): that trade's second binding fails and the first is undone.
 *
 * Every trade reads and writes two servers' cpu fields and binds two
 * threads, under handoff.c's lock: two trades at once would race on a
 * field (GenMC reports the data race, the fields being plain) or leave
 * a thread bound elsewhere than its server's cpu says.  At the end each
 * server's thread is on its server's cpu, the cpus are distinct, and
 * server 1 never got CPU 2.
 */
#include "model.h"

#include <fcntl.h>
#include <unistd.h>

/* handoff.c's trades need these (configure finds them on Linux). */
#define HAVE_PTHREAD_SETAFFINITY_NP 1
#define HAVE_PTHREAD_GETCPUCLOCKID 1

/* GenMC's own unistd.h and fcntl.h make open, pread and close calls of
 * its file-system model, open with three arguments: each server's status
 * file is a name of ours instead (fi_model_pread, below). */
#undef open
#undef pread
#undef close
#define open(path, flags) ((void)(path), (void)(flags), -1)
#define pread(fd, buf, n, off) fi_model_pread((fd), (buf), (n), (off))
#define close(fd) ((void)(fd), 0)
static long fi_model_pread(int fd, char *buf, unsigned long n, long off);

/* runnable()'s parse of the status line: the C library's, which GenMC
 * cannot call. */
char *strrchr(const char *s, int c)
{
    const char *last = NULL;
    for (;; ++s) {
        if (*s == (char)c)
            last = s;
        if (*s == '\0')
            return (char *)last;
    }
}

/* The threads' bindings, by GenMC's thread ids (main 0, then the servers
 * in the order they are created); written under handoff.c's lock. */
#define pthread_setaffinity_np(t, size, set) fi_model_bind((t), (set))
/* and a cpuset is the one CPU that bind_to puts in it, so that the stub
 * need not decode glibc's 128 bytes (CPU_ZERO is a __builtin_memset). */
#undef CPU_ZERO
#undef CPU_SET
#define CPU_ZERO(set) ((void)(set))
#define CPU_SET(cpu, set) (*(int *)(void *)(set) = (cpu))
#define pthread_getcpuclockid(t, clock) ((void)(t), *(clock) = FI_MODEL_CPU_CLOCK, 0)
static int fi_model_bind(long thread, const void *set);

#include "../../lib/state.c"
#include "../../lib/wait.c"
#undef _GNU_SOURCE    /* handoff.c defines it, the run's flags too */
#include "../../lib/handoff.c"

#include "harness.h"

#ifndef FI_MODEL_LOOKS
#define FI_MODEL_LOOKS 3
#endif
#define FI_MODEL_SERVERS 3
#define FI_MODEL_BAD_CPU 2   /* server 1's thread may not run there */

static int cpu_of[FI_MODEL_SERVERS + 1];

static int fi_model_bind(long thread, const void *set)
{
    int cpu = *(const int *)set;
    assert(cpu >= 0 && cpu < FI_MODEL_SERVERS && thread >= 1 && thread <= FI_MODEL_SERVERS);
    if (thread == fi_model_servers[1].thread && cpu == FI_MODEL_BAD_CPU)
        return 22;    /* EINVAL: not in its cpuset */
    cpu_of[thread] = cpu;
    return 0;
}

/* "tid (name) R ...": every server runnable. */
static long fi_model_pread(int fd, char *buf, unsigned long n, long off)
{
    static const char line[] = "7 (filaments) R 1";
    assert(fd >= 100 && off == 0);
    unsigned long k = 0;
    for (; k < sizeof line - 1 && k < n; ++k)
        buf[k] = line[k];
    return (long)k;
}

static void *server(void *arg)
{
    struct fi_server *me = arg;
    assert(pthread_self() == me->thread);
    AO_store(&me->barrier_round, 1);
    if (me->index == FI_MODEL_SERVERS - 1)
        return NULL;    /* the late one: arrived, at last */
    struct fi_handoff_watch w;
    fi_handoff_watch_init(&w);
    for (int k = 0; k < FI_MODEL_LOOKS; ++k)
        fi_handoff_look(me, 1, &w);
    return NULL;
}

int main(void)
{
    fi_model_init(FI_MODEL_SERVERS);
    pthread_t t[FI_MODEL_SERVERS];
    /* As server.c and open_server leave them before the run: each server
     * bound to a CPU of its own, its clock and its status file open. */
    for (int k = 0; k < FI_MODEL_SERVERS; ++k) {
        struct fi_server *s = &fi_model_servers[k];
        s->thread = k + 1;
        s->cpu = k;
        cpu_of[k + 1] = k;
        s->cpu_clock = FI_MODEL_CPU_CLOCK;
        s->status_fd = 100 + k;
    }
    fi_lib.handoff = 1;
    for (int k = 0; k < FI_MODEL_SERVERS; ++k)
        if (pthread_create(&t[k], NULL, server, &fi_model_servers[k]) != 0)
            abort();
    for (int k = 0; k < FI_MODEL_SERVERS; ++k)
        pthread_join(t[k], NULL);
    int seen = 0;
    for (int k = 0; k < FI_MODEL_SERVERS; ++k) {
        struct fi_server *s = &fi_model_servers[k];
        assert(s->cpu >= 0 && s->cpu < FI_MODEL_SERVERS && !(seen & 1 << s->cpu));
        seen |= 1 << s->cpu;
        assert(cpu_of[s->thread] == s->cpu);
    }
    assert(fi_model_servers[1].cpu != FI_MODEL_BAD_CPU);
    return 0;
}
