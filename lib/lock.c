/*
 * lock.c - spin locks [paper §2]: test-and-test-and-set with backoff.
 *
 * The library never preempts a filament, so a holder always gets to its
 * unlock; the system may still deschedule the holder's server when there
 * are more servers than cores, so a long wait yields.  Holding a lock
 * across f_join can deadlock (the joining server may run a filament that
 * wants the same lock): f_lock(3) states the rule.
 */
#include <sched.h>

#include "internal.h"

_Static_assert(sizeof(AO_t) == sizeof(size_t), "f_lock word");

static volatile AO_t *word(f_lock_t *l)
{
    return (volatile AO_t *)&l->f_word_;
}

void f_lock_init(f_lock_t *l)
{
    AO_store(word(l), 0);
}

void f_lock(f_lock_t *l)
{
    unsigned spins = 0;
    /* Acquire: the critical section after the lock; pairs with f_unlock. */
    while (!AO_compare_and_swap_acquire(word(l), 0, 1)) {
        while (AO_load(word(l)) != 0) {
            if (++spins < 1024)
                fi_cpu_relax();
            else
                sched_yield();
        }
    }
}

void f_unlock(f_lock_t *l)
{
    /* Release: the critical section before the lock is seen free. */
    AO_store_release(word(l), 0);
}
