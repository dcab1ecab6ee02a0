/*
 * state.c - the library's state, at the bottom of the layers
 * (doc/design.md, "Layout of lib/"): struct fi_lib, the thread's server,
 * and the thread-local words that the inline paths of filaments.h read.  Here, and not in the file of
 * the life cycle that writes most of it, so that every mechanism can read
 * it without linking to the mechanisms above it.
 */
#include "state.h"
#include "trace.h"

struct fi_lib fi_lib = { .state = FI_UNINIT };
__thread struct fi_server *fi_self;
F_API __thread size_t f_self_slot_;
/* A creating server's RTC cursor and phase (rtc.c, phase.c); -1: none. */
F_API __thread struct f_creator_ f_creator_ = { { NULL, NULL }, NULL, -1 };
/* The calling thread's trace buffer, while it records (trace.h). */
__thread struct fi_trace_buf *fi_trace_here;

int f_num_servers(void)
{
    return fi_state() == FI_UNINIT ? F_ESTATE : fi_lib.nservers;
}

int f_my_server(void)
{
    return fi_self != NULL ? fi_self->index : F_ESTATE;
}
