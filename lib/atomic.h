/*
 * atomic.h - the one place that includes <atomic_ops.h>.
 *
 * Every concurrent access to a shared word goes through AO_ (doc/style.md, "Atomics"); the
 * orderings are named at each use.  fi_cpu_relax() is the pause of a spin
 * loop; FI_CACHE_LINE comes from configure (64 unless told otherwise).
 *
 * FI_MODEL_CHECK (tests/model, doc/model-check.md): the AO_ calls that the
 * library uses become the compiler's __atomic builtins on the same
 * volatile AO_t words, which a model checker of C11 programs (GenMC)
 * explores, in one of two mappings: FI_MODEL_X86, what libatomic_ops does
 * on x86-64 (a load acquires, a store releases, every read-modify-write is
 * a full fence), or else what its generic gcc code does on arm64, POWER and
 * RISC-V (sysdeps/gcc/generic*.h: no suffix relaxed, _full an acq_rel
 * compare-and-swap and a seq_cst fetch-and-add).  And fi_cpu_relax() is no
 * instruction.
 */
#ifndef FI_ATOMIC_H
#define FI_ATOMIC_H

#ifndef FI_MODEL_CHECK
#include <atomic_ops.h>
#endif

#ifndef FI_CACHE_LINE
#define FI_CACHE_LINE 64
#endif

#define FI_LIKELY(x) __builtin_expect(!!(x), 1)
#define FI_UNLIKELY(x) __builtin_expect(!!(x), 0)

#ifdef FI_MODEL_CHECK
typedef unsigned long AO_t;

#ifdef FI_MODEL_X86
#define FI_MO_LOAD_ __ATOMIC_ACQUIRE       /* mov: TSO keeps loads in order */
#define FI_MO_STORE_ __ATOMIC_RELEASE      /* mov: TSO keeps stores in order */
#define FI_MO_RMW_ __ATOMIC_SEQ_CST        /* lock-prefixed: a full fence (below) */
#define FI_MO_RMW_ACQ_ __ATOMIC_SEQ_CST
#define FI_MO_RMW_REL_ __ATOMIC_SEQ_CST
#define FI_MO_CAS_FULL_ __ATOMIC_SEQ_CST
#define FI_MO_FAA_FULL_ __ATOMIC_SEQ_CST
#define FI_RMW_FENCE_() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#else
#define FI_MO_LOAD_ __ATOMIC_RELAXED
#define FI_MO_STORE_ __ATOMIC_RELAXED
#define FI_MO_RMW_ __ATOMIC_RELAXED
#define FI_MO_RMW_ACQ_ __ATOMIC_ACQUIRE
#define FI_MO_RMW_REL_ __ATOMIC_RELEASE
#define FI_MO_CAS_FULL_ __ATOMIC_ACQ_REL
#define FI_MO_FAA_FULL_ __ATOMIC_SEQ_CST
#define FI_RMW_FENCE_() ((void)0)
#endif

static inline AO_t AO_load(const volatile AO_t *p) { return __atomic_load_n(p, FI_MO_LOAD_); }
static inline AO_t AO_load_acquire(const volatile AO_t *p)
{
    return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}
static inline void AO_store(volatile AO_t *p, AO_t v) { __atomic_store_n(p, v, FI_MO_STORE_); }
static inline void AO_store_release(volatile AO_t *p, AO_t v)
{
    __atomic_store_n(p, v, __ATOMIC_RELEASE);
}
static inline void AO_nop_full(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
#define AO_compiler_barrier() __atomic_signal_fence(__ATOMIC_SEQ_CST)

static inline AO_t fi_model_faa_(volatile AO_t *p, AO_t v, int mo)
{
    FI_RMW_FENCE_();
    AO_t old = __atomic_fetch_add(p, v, mo);
    FI_RMW_FENCE_();
    return old;
}

static inline int fi_model_cas_(volatile AO_t *p, AO_t old, AO_t new, int mo, int fail)
{
    FI_RMW_FENCE_();
    int ok = __atomic_compare_exchange_n(p, &old, new, 0, mo, fail);
    FI_RMW_FENCE_();
    return ok;
}

#define AO_fetch_and_add(p, v) fi_model_faa_((p), (v), FI_MO_RMW_)
#define AO_fetch_and_add1(p) fi_model_faa_((p), 1, FI_MO_RMW_)
#define AO_fetch_and_add1_release(p) fi_model_faa_((p), 1, FI_MO_RMW_REL_)
#define AO_fetch_and_add1_full(p) fi_model_faa_((p), 1, FI_MO_FAA_FULL_)
#define AO_fetch_and_sub1(p) fi_model_faa_((p), (AO_t)-1, FI_MO_RMW_)
#define AO_fetch_and_sub1_full(p) fi_model_faa_((p), (AO_t)-1, FI_MO_FAA_FULL_)
#define AO_compare_and_swap(p, o, n) fi_model_cas_((p), (o), (n), FI_MO_RMW_, FI_MO_RMW_)
#define AO_compare_and_swap_acquire(p, o, n)                                                   \
    fi_model_cas_((p), (o), (n), FI_MO_RMW_ACQ_, FI_MO_RMW_ACQ_)
#define AO_compare_and_swap_release(p, o, n)                                                   \
    fi_model_cas_((p), (o), (n), FI_MO_RMW_REL_, __ATOMIC_RELAXED)
#define AO_compare_and_swap_full(p, o, n)                                                      \
    fi_model_cas_((p), (o), (n), FI_MO_CAS_FULL_, __ATOMIC_ACQUIRE)
#endif /* FI_MODEL_CHECK */

/* Tell the core we are spinning: frees the pipeline for a sibling hyperthread. */
static inline void fi_cpu_relax(void)
{
#if defined(FI_MODEL_CHECK)
    /* A model checker runs no instruction: the loop around is what it sees. */
#elif defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield" ::: "memory");
#else
    AO_compiler_barrier();
#endif
}

#endif /* FI_ATOMIC_H */
