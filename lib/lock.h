/*
 * lock.h - the spin lock itself, for the library's own locks (the inboxes);
 * and, in a --enable-debug library, whether this thread holds an f_lock
 * (lock.c).
 */
#ifndef FI_LOCK_H
#define FI_LOCK_H

#include "base.h"

FI_HIDDEN void fi_spin_lock(f_lock_t *l);
FI_HIDDEN void fi_spin_unlock(f_lock_t *l);
#ifdef FI_DEBUG
FI_HIDDEN int fi_locks_held(void);
#else
static inline int fi_locks_held(void) { return 0; }
#endif

#endif /* FI_LOCK_H */
