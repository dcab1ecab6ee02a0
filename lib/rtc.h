/*
 * rtc.h - run-to-completion filaments [paper §2.1, §4.3] (rtc.c): what the
 * scheduler, creation and vararg.c call.  Their state is in each server
 * (pinned, any, inbox, the pack cursors; server.h) and in fi_lib (any_next,
 * any_used, rtc_movable; state.h).
 */
#ifndef FI_RTC_H
#define FI_RTC_H

#include "base.h"

struct fi_server;

/* The kind's part of the run (scheduler.h). */
FI_HIDDEN void fi_rtc_drain(struct fi_server *me);
FI_HIDDEN int fi_rtc_visible(const struct fi_server *me);
FI_HIDDEN int fi_rtc_help(struct fi_server *me);

FI_HIDDEN void fi_rtc_cursors_open(int open);
FI_HIDDEN void fi_rtc_cursors_reopen(void);
FI_HIDDEN void fi_rtc_creator_open(struct fi_server *me);
FI_HIDDEN void fi_rtc_creator_close(struct fi_server *me);
FI_HIDDEN void fi_rtc_creator_undo(struct fi_server *s, fi_discard_fn discard);
FI_HIDDEN FI_MUST_CHECK int fi_rtc_create(int server, const struct fi_desc *d);
FI_HIDDEN extern const struct fi_mechanism fi_rtc_mechanism;

#endif /* FI_RTC_H */
