/*
 * memory.c - shared, cache-line aligned memory for programs (f_malloc), and
 * the library's own allocations, which go through one place so that the
 * tests can make the k-th of them fail (fi_alloc_fail_at).
 */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/mman.h>

#include "memory.h"
#include "state.h"

long fi_alloc_fail_at;             /* 0: never fail */
static volatile AO_t alloc_count;  /* allocations since the hook was last set */

static int injected_failure(void)
{
    if (FI_LIKELY(fi_alloc_fail_at == 0))
        return 0;
    return (long)AO_fetch_and_add1(&alloc_count) + 1 == fi_alloc_fail_at;
}

FI_HIDDEN void fi_alloc_fail_reset(long k)
{
    AO_store(&alloc_count, 0);
    fi_alloc_fail_at = k;
}

/*
 * No object may be larger than PTRDIFF_MAX bytes (pointer differences within
 * it must be ptrdiff_t): such a request is refused here, with NULL, before an
 * allocator sees it.  glibc would fail it too, but a sanitizer's allocator
 * aborts the program instead, unless allocator_may_return_null is set.
 */
#define MOST_BYTES ((size_t)PTRDIFF_MAX)

/* size rounded up to whole cache lines (at least one), or 0 if too big. */
static size_t whole_lines(size_t size)
{
    size_t line = FI_CACHE_LINE;
    if (size == 0)
        return line;
    if (size > MOST_BYTES - line)
        return 0;
    return (size + line - 1) / line * line;
}

void *fi_alloc(size_t size)
{
    return injected_failure() ? NULL : malloc(size);
}

void *fi_alloc_aligned(size_t size)
{
    size_t bytes = whole_lines(size);
    if (bytes == 0 || injected_failure())
        return NULL;
    return aligned_alloc(FI_CACHE_LINE, bytes);
}

void *fi_realloc(void *p, size_t size)
{
    return injected_failure() ? NULL : realloc(p, size);
}

void fi_free(void *p)
{
    free(p);
}

void fi_out_of_memory(const char *what)
{
    fprintf(stderr, "libfilaments: out of memory for %s\n", what);
    abort();
}

/* Grow *array of *cap elements of `size` bytes, `used` of them in use, to
 * hold one more: double it (16 at first). */
int fi_grow(void **array, size_t *cap, size_t used, size_t size)
{
    if (used < *cap)
        return F_OK;
    size_t n = *cap ? *cap * 2 : 16;
    void *p = fi_realloc(*array, n * size);
    if (p == NULL)
        return F_ENOMEM;
    *array = p;
    *cap = n;
    return F_OK;
}

/*
 * Big blocks (queue chunks of 2 MiB and more) come from mmap, aligned to
 * 2 MiB and marked for transparent huge pages where the system has them:
 * creating a million filaments touches 32 MiB, and one fault per 4 KiB
 * page is what dominated creation on a virtual machine here (first touch
 * of 32 MiB: 260 ms in 4 KiB pages, 5 ms in huge pages).  Smaller blocks
 * come from malloc.
 */
#define HUGE_PAGE ((size_t)2 << 20)

void *fi_alloc_big(size_t size)
{
    if (size < HUGE_PAGE)
        return fi_alloc(size);
    if (injected_failure() || size > (size_t)-1 - HUGE_PAGE)
        return NULL;
    size_t span = size + HUGE_PAGE;
    char *p = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    char *q = (char *)(((uintptr_t)p + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
    if (q > p)
        munmap(p, (size_t)(q - p));
    munmap(q + size, (size_t)(p + span - (q + size)));
#ifdef MADV_HUGEPAGE
    madvise(q, size, MADV_HUGEPAGE);  /* a hint: no harm where it is refused */
#endif
    return q;
}

void fi_free_big(void *p, size_t size)
{
    if (size < HUGE_PAGE)
        fi_free(p);
    else if (p != NULL)
        munmap(p, size);
}

/* Large, zeroed, page-aligned memory that costs nothing until touched. */
void *fi_alloc_zeroed_pages(size_t size)
{
    if (injected_failure())
        return NULL;
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

void fi_free_pages(void *p, size_t size)
{
    if (p != NULL)
        munmap(p, size);
}

void *f_malloc(size_t size)
{
    return fi_alloc_aligned(size);
}

void f_free(void *p)
{
    fi_free(p);
}

/*
 * Objects that f_finalize frees (reductions, continuations): each starts
 * with a struct fi_owned, linked on one list by the main thread.
 */
static struct fi_owned owned = { &owned, &owned, NULL };

void fi_owned_link(struct fi_owned *o, void (*destroy)(struct fi_owned *))
{
    o->destroy = destroy;
    o->next = owned.next;
    o->prev = &owned;
    owned.next->prev = o;
    owned.next = o;
}

void fi_owned_unlink(struct fi_owned *o)
{
    o->prev->next = o->next;
    o->next->prev = o->prev;
}

/* f_finalize: what the program did not free. */
static void owned_free_all(void)
{
    while (owned.next != &owned) {
        struct fi_owned *o = owned.next;
        fi_owned_unlink(o);
        o->destroy(o);
    }
}

const struct fi_mechanism fi_owned_mechanism = { .free = owned_free_all };

/* One zeroed, line-aligned block of `size` bytes per server; *stride gets
 * the distance between two servers' blocks. */
void *fi_per_server_alloc(size_t size, size_t *stride)
{
    *stride = whole_lines(size);
    if (*stride == 0 || (size_t)fi_lib.nservers > MOST_BYTES / *stride)
        return NULL;
    size_t bytes = *stride * (size_t)fi_lib.nservers;
    char *p = fi_alloc_aligned(bytes);
    if (p != NULL)
        memset(p, 0, bytes);
    return p;
}
