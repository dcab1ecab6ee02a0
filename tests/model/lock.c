/*
 * lock.c - f_lock, the spin lock (lib/lock.c; doc/model-check.md).
 *
 * Two servers each take the lock, add to a plain counter and let it go:
 * without the acquire of the lock's CAS or the release of the unlock, the
 * two critical sections race (GenMC reports the data race); with them the
 * counter ends at 2.  The lock's test loop spins on a relaxed load, which
 * GenMC turns into a wait for the unlock.
 */
#include "model.h"

#include "../../lib/state.c"
#include "../../lib/lock.c"

#include "harness.h"

static f_lock_t lock = F_LOCK_INITIALIZER;
static long counter;

static void *server(void *arg)
{
    (void)arg;
    f_lock(&lock);
    ++counter;
    f_unlock(&lock);
    return NULL;
}

int main(void)
{
    fi_lib.nservers = 2;
    fi_lib.servers = fi_model_servers;
    fi_model_run(2, 0, server);
    assert(counter == 2);
    return 0;
}
