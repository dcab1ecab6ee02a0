/*
 * create.c - creation by the servers: f_create_per_server [paper §2.1,
 * §2.2, §4.3].
 *
 * The paper's programs create every filament from the main thread before
 * f_parallel.  Matmul n = 1000 creates 10^6 of them, into fresh memory,
 * while every server waits: on 16 cores that start took 20-48 ms of a
 * 75-103 ms run (Amdahl's law, growing with the core count).  Here the
 * main thread wakes the parked servers instead, as f_parallel does
 * (fi_servers_each, server.c), and each calls the program's creator for
 * itself, on its own thread, so that creation runs in parallel and each
 * queue chunk and run array is first touched by the server that will run
 * it.  The filaments wait for the next f_parallel like any others.
 *
 * Ownership while the creators run (the main thread waits, and other
 * threads get F_ESTATE: the state is FI_RUNNING):
 *  - a server writes only its own queues (pinned and F_ANY), its own runs
 *    in the last phase (and their argument blocks), its own fields of
 *    struct fi_server, and its cursors, which live in thread-local
 *    storage (f_creator_, filaments.h): the main thread's cursors are
 *    closed, so the inline paths of other servers never reach its queue;
 *  - it reads the phases and the range versions, which nobody writes;
 *  - a creation for another server, a new phase, a fork or a join is
 *    refused with F_ESTATE before it touches anything.
 * A creation call that fails in a creator is noted (fi_created); once
 * every server has checked out, the main thread, which then owns
 * everything again, cuts every server's queues and runs back to where they
 * ended before the call if any failed, so that nothing created by a
 * failing call remains.
 */
#include "create.h"
#include "forkjoin.h"
#include "phase.h"
#include "rtc.h"
#include "vararg.h"
#include "state.h"
#include "trace.h"

/* Server me's part, on its own thread, in place of a run (fi_servers_each). */
static void create_here(struct fi_server *me)
{
    me->create_rc = F_OK;
    fi_rtc_creator_open(me);
    fi_phase_creator_open(me);
    fi_forkjoin_open(me, 0);
    f_creator_.server_ = me->index;
    me->creating = 1;
    unsigned long start = fi_trace_now(me->trace);
    int rc = fi_lib.create(me->index, fi_lib.nservers, fi_lib.create_arg);
    fi_trace_span(me->trace, FI_TRACE_CREATOR, start, fi_trace.calls, rc, 0, 0);
    me->creating = 0;
    f_creator_.server_ = -1;
    fi_forkjoin_open(me, 1);
    fi_phase_creator_close();
    fi_rtc_creator_close(me);
    if (rc < 0 && me->create_rc == F_OK)
        me->create_rc = rc;
}

int f_create_per_server(f_create_func create, void *arg)
{
    if (fi_check_main_between_runs() < 0)
        return F_ESTATE;
    if (create == NULL)
        return F_EINVAL;
    AO_store(&fi_lib.state, FI_RUNNING);
    fi_trace_call_begin();
    fi_rtc_cursors_open(0);    /* their tails written back, before the servers look */
    fi_phase_cursors_open(0);
    fi_lib.create = create;
    fi_lib.create_arg = arg;
    fi_servers_each(create_here);

    int rc = F_OK;
    for (int s = 0; s < fi_lib.nservers && rc == F_OK; ++s)
        rc = fi_lib.servers[s].create_rc;
    if (rc < 0) {
        for (int s = 0; s < fi_lib.nservers; ++s) {
            fi_rtc_creator_undo(&fi_lib.servers[s], fi_vararg_discard);
            fi_phase_creator_undo(&fi_lib.servers[s]);
        }
    }
    fi_rtc_cursors_reopen();
    fi_phase_cursors_open(1);
    fi_trace_call_end(FI_TRACE_CREATE, rc);
    AO_store(&fi_lib.state, FI_READY);
    return rc;
}
