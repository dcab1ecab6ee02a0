/*
 * phase.h - iterative phases [paper §2.2, §4.4] (phase.c): passes for the
 * scheduler, barrier code, and creation.  The phases are written by the
 * main thread between runs (fi_lib.phases; state.h).
 */
#ifndef FI_PHASE_H
#define FI_PHASE_H

#include "base.h"
#include "state.h"
#include "trace.h"

FI_HIDDEN void fi_phase_pass(struct fi_server *me, int phase);
/* What server me's next pass over the phase will be: backward or not, and
 * the filaments it runs (for the schedule trace, before the pass). */
FI_HIDDEN void fi_phase_pass_shape(const struct fi_server *me, int phase, int *backward,
                                   unsigned long *filaments);
/* The decider, every server arrived from a pass over the phase: place the
 * next pass's filaments (adapt.c, where the phase is adaptive).  Inline,
 * so that a run without adaptive phases pays a load and a branch per
 * episode (callgrind, bench/micro's empty barrier episode: 154
 * instructions, 169 with the call). */
FI_HIDDEN void fi_phase_place_next(int phase, struct fi_trace_buf *trace);
static inline void fi_phase_passed(int phase, struct fi_trace_buf *trace)
{
    if (FI_UNLIKELY(fi_lib.phases_placed != 0))
        fi_phase_place_next(phase, trace);
}
static inline int fi_phases_count(void)
{
    return fi_lib.nphases;
}
FI_HIDDEN f_seq_func fi_phase_seq(int phase, void **arg);  /* the phase's barrier code */
FI_HIDDEN FI_MUST_CHECK int fi_phase_adopt(void *block);
FI_HIDDEN void fi_phase_cursors_open(int open);
FI_HIDDEN void fi_phase_disown_last(void);
FI_HIDDEN void fi_phase_creator_open(struct fi_server *me);
FI_HIDDEN void fi_phase_creator_close(void);
FI_HIDDEN void fi_phase_creator_undo(struct fi_server *s);
FI_HIDDEN extern const struct fi_mechanism fi_phase_mechanism;

#endif /* FI_PHASE_H */
