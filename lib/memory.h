/*
 * memory.h - the library's allocations, with a hook for the
 * failure-injection tests, and the objects the program creates that
 * f_finalize frees (memory.c).
 */
#ifndef FI_MEMORY_H
#define FI_MEMORY_H

#include "base.h"

FI_HIDDEN FI_MUST_CHECK void *fi_alloc(size_t size);
FI_HIDDEN FI_MUST_CHECK void *fi_alloc_aligned(size_t size);
FI_HIDDEN FI_MUST_CHECK void *fi_realloc(void *p, size_t size);
FI_HIDDEN FI_MUST_CHECK void *fi_alloc_zeroed_pages(size_t size);
FI_HIDDEN FI_MUST_CHECK void *fi_alloc_big(size_t size);
FI_HIDDEN void fi_free_big(void *p, size_t size);
FI_HIDDEN void fi_free_pages(void *p, size_t size);
FI_HIDDEN void fi_free(void *p);
FI_HIDDEN FI_MUST_CHECK int fi_grow(void **array, size_t *cap, size_t used, size_t size);
FI_HIDDEN extern long fi_alloc_fail_at;  /* tests: the k-th allocation fails (0: never) */
FI_HIDDEN void fi_alloc_fail_reset(long k);     /* count from now; fail the k-th (0: never) */
FI_HIDDEN FI_MUST_CHECK void *fi_per_server_alloc(size_t size, size_t *stride);
/* Where a call that cannot fail finds no memory: one line naming `what` on
 * stderr, then abort(). */
FI_HIDDEN _Noreturn void fi_out_of_memory(const char *what);

/* An object the program made (a reduction, a continuation block): linked
 * and unlinked by the main thread between runs; f_finalize destroys those
 * left (fi_owned_mechanism). */
struct fi_owned {
    struct fi_owned *next, *prev;
    void (*destroy)(struct fi_owned *);
};
FI_HIDDEN void fi_owned_link(struct fi_owned *o, void (*destroy)(struct fi_owned *));
FI_HIDDEN void fi_owned_unlink(struct fi_owned *o);
FI_HIDDEN extern const struct fi_mechanism fi_owned_mechanism;

#endif /* FI_MEMORY_H */
