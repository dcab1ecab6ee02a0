/*
 * filaments/loop-private.h - what the parallel loop macros of <filaments.h>
 * (F_LOOP_n, F_LOOP_REDUCE_n, F_PARALLEL_FOR, F_PARALLEL_REDUCE; F_LOOP(3))
 * expand to.
 *
 * NOT an interface: include <filaments.h>, which includes this after
 * <filaments/inline-private.h>, whose map over (type, name) pairs
 * (F_EACHn_) it uses.  Every name here ends in an underscore.
 *
 * A loop `name` of n variables is four things at file scope: the
 * structure of its variables, name##_args_; its body, a static inline
 * function of (lo, hi, a1 .. an) that the program writes; name itself, the
 * range function that f_parallel_for calls with a strip, which reads the
 * variables out of the structure once and calls the body, so that the
 * compiler inlines the body and keeps the variables in registers across
 * the strip, as OpenMP's outlined function keeps its captured ones; and
 * name##_for_, which packs the variables into a structure on the caller's
 * stack and calls f_parallel_for or f_parallel_for_dynamic.  The structure
 * lives until the call returns, which is after every strip has run, so
 * nothing is copied again or allocated.
 */
#ifndef FILAMENTS_LOOP_PRIVATE_H
#define FILAMENTS_LOOP_PRIVATE_H

#ifndef FILAMENTS_H
#error "include <filaments.h>, not <filaments/loop-private.h>"
#endif

/* The combine function and the identity of op over long (type 'l') or
 * double ('d'), for F_PARALLEL_REDUCE: F_OK, or F_EINVAL for another op
 * or type.  The library's (lib/loop.c). */
F_API int f_loop_op_(enum f_op op, char type, f_combine_func *combine, const void **identity);

/* 'l', 'd', or 0 for a partial of another type: the operations of
 * F_PARALLEL_REDUCE are those of long and double only.  The expression
 * is not evaluated. */
#define F_LOOP_TYPE_(x) _Generic((x), long: 'l', double: 'd', default: 0)

/* The loop's members as the body's arguments, read through f_a_; its
 * parameters each after a comma. */
#define F_LOOP_UNPACKED_(T, a) , f_a_->a
#define F_LOOP_PARAM_(T, a) , T a

/* What the calls below begin with: the variables packed into f_a_ on
 * the caller's stack, f_ap_ pointing at it. */
#define F_LOOP_PACK_(n, name, ...)                                                             \
    (struct name##_args_ f_a_ = { F_EACH##n##_(F_ARG_, F_COMMA_, __VA_ARGS__) };               \
     void *f_ap_ = &f_a_;)

/* A loop's body, (lo, hi, extra..., a1 .. an): extra, the parameters,
 * each after a comma, that a reduction's body has before the variables. */
#define F_LOOP_BODY_(n, name, lo, hi, extra, ...)                                              \
    static inline void name##_body_(long lo, long hi F_UNWRAP_ extra                           \
                                        F_EACH##n##_(F_LOOP_PARAM_, F_NO_SEP_, __VA_ARGS__))

/* A loop of n (type, name) pairs: its structure, and its body declared. */
#define F_LOOP_HEAD_(n, name, lo, hi, extra, ...)                                              \
    struct name##_args_ {                                                                      \
        F_EACH##n##_(F_MEMBER_, F_NO_SEP_, __VA_ARGS__)                                        \
    };                                                                                         \
    F_LOOP_BODY_(n, name, lo, hi, extra, __VA_ARGS__)

/* name##_for_ and name##_dynamic_: F_PARALLEL_FOR's and
 * F_PARALLEL_FOR_DYNAMIC's, the loop's variables as parameters. */
#define F_LOOP_CALLS_(name, params, pack)                                                      \
    static inline F_UNUSED_ int name##_for_(long f_b_, long f_e_ F_UNWRAP_ params)             \
    {                                                                                          \
        F_UNWRAP_ pack                                                                         \
        return f_parallel_for(f_b_, f_e_, name, f_ap_);                                        \
    }                                                                                          \
    static inline F_UNUSED_ int name##_dynamic_(long f_b_, long f_e_,                          \
                                                long f_c_ F_UNWRAP_ params)                    \
    {                                                                                          \
        F_UNWRAP_ pack                                                                         \
        return f_parallel_for_dynamic(f_b_, f_e_, f_c_, name, f_ap_);                          \
    }

/* name##_reduce_ and name##_reduce_op_: F_PARALLEL_REDUCE_WITH's, with
 * the program's combine and identity, and F_PARALLEL_REDUCE's, with those
 * of an f_op for a partial of type long or double (else F_EINVAL). */
#define F_LOOP_REDUCE_CALLS_(name, TR, params, pack)                                           \
    static inline F_UNUSED_ int name##_reduce_(f_combine_func f_c_, const TR *f_id_,            \
                                               long f_b_, long f_e_,                           \
                                               TR *f_r_ F_UNWRAP_ params)                      \
    {                                                                                          \
        F_UNWRAP_ pack                                                                         \
        return f_parallel_reduce(f_b_, f_e_, name, f_ap_, f_r_, f_id_, sizeof(TR), f_c_);      \
    }                                                                                          \
    static inline F_UNUSED_ int name##_reduce_op_(enum f_op f_op_, long f_b_, long f_e_,       \
                                                  TR *f_r_ F_UNWRAP_ params)                   \
    {                                                                                          \
        f_combine_func f_c_;                                                                   \
        const void *f_id_;                                                                     \
        int f_rc_ = f_loop_op_(f_op_, F_LOOP_TYPE_(*f_r_), &f_c_, &f_id_);                     \
        if (f_rc_ < 0)                                                                         \
            return f_rc_;                                                                      \
        F_UNWRAP_ pack                                                                         \
        return f_parallel_reduce(f_b_, f_e_, name, f_ap_, f_r_, f_id_, sizeof(TR), f_c_);      \
    }

/* F_LOOP_n: name, the range function that f_parallel_for calls with a
 * strip; the calls; and the head of the body's definition, whose braces
 * the program writes. */
#define F_LOOP_N_(n, name, lo, hi, ...)                                                        \
    F_LOOP_HEAD_(n, name, lo, hi, (), __VA_ARGS__);                                            \
    static void name(long f_b_, long f_e_, void *f_arg_)                                       \
    {                                                                                          \
        const struct name##_args_ *f_a_ = (const struct name##_args_ *)f_arg_;                 \
        name##_body_(f_b_, f_e_ F_EACH##n##_(F_LOOP_UNPACKED_, F_NO_SEP_, __VA_ARGS__));       \
    }                                                                                          \
    F_LOOP_CALLS_(name, (F_EACH##n##_(F_LOOP_PARAM_, F_NO_SEP_, __VA_ARGS__)),                 \
                  F_LOOP_PACK_(n, name, __VA_ARGS__))                                          \
    F_LOOP_BODY_(n, name, lo, hi, (), __VA_ARGS__)

/* F_LOOP_0: no variables, no structure. */
#define F_LOOP_0_(name, lo, hi)                                                                \
    static inline void name##_body_(long lo, long hi);                                         \
    static void name(long f_b_, long f_e_, void *f_arg_)                                       \
    {                                                                                          \
        (void)f_arg_;                                                                          \
        name##_body_(f_b_, f_e_);                                                              \
    }                                                                                          \
    F_LOOP_CALLS_(name, (), (void *f_ap_ = (void *)0;))                                        \
    static inline void name##_body_(long lo, long hi)

/* F_LOOP_REDUCE_n: the same, with the private partial, TR *acc, the
 * body's third parameter; name is an f_reduce_loop_func. */
#define F_LOOP_REDUCE_N_(n, name, lo, hi, TR, acc, ...)                                        \
    F_LOOP_HEAD_(n, name, lo, hi, (, TR *acc), __VA_ARGS__);                                   \
    static void name(long f_b_, long f_e_, void *f_arg_, void *f_p_)                           \
    {                                                                                          \
        const struct name##_args_ *f_a_ = (const struct name##_args_ *)f_arg_;                 \
        name##_body_(f_b_, f_e_, (TR *)f_p_                                                    \
                     F_EACH##n##_(F_LOOP_UNPACKED_, F_NO_SEP_, __VA_ARGS__));                  \
    }                                                                                          \
    F_LOOP_REDUCE_CALLS_(name, TR, (F_EACH##n##_(F_LOOP_PARAM_, F_NO_SEP_, __VA_ARGS__)),      \
                         F_LOOP_PACK_(n, name, __VA_ARGS__))                                   \
    F_LOOP_BODY_(n, name, lo, hi, (, TR *acc), __VA_ARGS__)

#define F_LOOP_REDUCE_0_(name, lo, hi, TR, acc)                                                \
    static inline void name##_body_(long lo, long hi, TR *acc);                                \
    static void name(long f_b_, long f_e_, void *f_arg_, void *f_p_)                           \
    {                                                                                          \
        (void)f_arg_;                                                                          \
        name##_body_(f_b_, f_e_, (TR *)f_p_);                                                  \
    }                                                                                          \
    F_LOOP_REDUCE_CALLS_(name, TR, (), (void *f_ap_ = (void *)0;))                             \
    static inline void name##_body_(long lo, long hi, TR *acc)

#endif /* FILAMENTS_LOOP_PRIVATE_H */
