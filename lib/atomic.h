/*
 * atomic.h - the one place that includes <atomic_ops.h>.
 *
 * Every concurrent access to a shared word goes through AO_ (doc/style.md, "Atomics"); the
 * orderings are named at each use.  fi_cpu_relax() is the pause of a spin
 * loop; FI_CACHE_LINE comes from configure (64 unless told otherwise).
 */
#ifndef FI_ATOMIC_H
#define FI_ATOMIC_H

#include <atomic_ops.h>

#ifndef FI_CACHE_LINE
#define FI_CACHE_LINE 64
#endif

#define FI_LIKELY(x) __builtin_expect(!!(x), 1)
#define FI_UNLIKELY(x) __builtin_expect(!!(x), 0)

/* Tell the core we are spinning: frees the pipeline for a sibling hyperthread. */
static inline void fi_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield" ::: "memory");
#else
    AO_compiler_barrier();
#endif
}

#endif /* FI_ATOMIC_H */
