/*
 * lock.c - spin locks [paper §2]: test-and-test-and-set with backoff.
 *
 * The library never preempts a filament, so a holder always gets to its
 * unlock; the system may still deschedule the holder's server when there
 * are more servers than cores, so a long wait yields.  Holding a lock
 * across f_join can deadlock (the joining server may run a filament that
 * wants the same lock): f_lock(3) states the rule, and a library configured
 * with --enable-debug checks it.  The library's own locks (the inboxes)
 * are fi_spin_lock, never held across a join, and not counted.
 */
#include <sched.h>

#include "lock.h"
#include "forkjoin.h"
#include "state.h"

_Static_assert(sizeof(AO_t) == sizeof(size_t), "f_lock word");

static volatile AO_t *word(f_lock_t *l)
{
    return (volatile AO_t *)&l->f_word_;
}

void f_lock_init(f_lock_t *l)
{
    AO_store(word(l), 0);
}

void fi_spin_lock(f_lock_t *l)
{
    unsigned spins = 0;
    /* Acquire: the critical section after the lock; pairs with fi_spin_unlock. */
    while (!AO_compare_and_swap_acquire(word(l), 0, 1)) {
        while (AO_load(word(l)) != 0) {
            if (++spins < 1024)
                fi_cpu_relax();
            else
                sched_yield();
        }
    }
}

void fi_spin_unlock(f_lock_t *l)
{
    /* Release: the critical section before the lock is seen free. */
    AO_store_release(word(l), 0);
}

#ifdef FI_DEBUG
/*
 * The lock rule, checked: the locks this thread holds.  While it holds
 * any, its deque is fenced (fi_forkjoin_bounds: every fork through the
 * library, the top slot marked), so that every join reaches the library,
 * which refuses it with F_ESTATE.  The one call
 * from below up to a kind, in debug builds only: with every join sent to
 * the library instead, the depth-100 000 chain of f_fork(3) overflowed
 * its stack under AddressSanitizer.
 */
static __thread unsigned long held;

int fi_locks_held(void)
{
    return held != 0;
}

static void count_held(long change)
{
    held += (unsigned long)change;
    if (fi_self != NULL)
        fi_forkjoin_bounds(&fi_self->deque);
}
#else
static void count_held(long change)
{
    (void)change;
}
#endif

void f_lock(f_lock_t *l)
{
    fi_spin_lock(l);
    count_held(1);
}

void f_unlock(f_lock_t *l)
{
    count_held(-1);
    fi_spin_unlock(l);
}
