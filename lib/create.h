/*
 * create.h - creation by the servers, f_create_per_server (create.c).  Its
 * state: fi_lib.create and create_arg (the main thread, before it wakes
 * the servers; state.h) and each server's creating, create_rc and marks
 * (the owner, in its creator; server.h).
 */
#ifndef FI_CREATE_H
#define FI_CREATE_H

#include "base.h"
#include "server.h"

/* A creation call's code: inside a server's creator its first failure is
 * kept, and fails the whole f_create_per_server. */
static inline int fi_created(struct fi_server *me, int rc)
{
    if (FI_UNLIKELY(rc < 0) && me != NULL && me->creating && me->create_rc == 0)
        me->create_rc = rc;
    return rc;
}

#endif /* FI_CREATE_H */
