/*
 * vararg.h - variable-argument filaments [paper §4.1] (vararg.c): the
 * discard that frees their argument blocks, which f_finalize passes to
 * every mechanism.
 */
#ifndef FI_VARARG_H
#define FI_VARARG_H

#include "base.h"

FI_HIDDEN void fi_vararg_discard(f_func fn, void *arg);

#endif /* FI_VARARG_H */
