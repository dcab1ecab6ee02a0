/*
 * base.h - what every file in lib/ shares: the build's macros, the
 * filament descriptor [paper §4.1], and the hooks through which the life
 * cycle reaches each mechanism.  It owns no state; each mechanism's header
 * declares the state it owns and says beside each field who writes it
 * (doc/design.md has the protocols that span files).
 */
#ifndef FI_BASE_H
#define FI_BASE_H

#ifdef HAVE_CONFIG_H
#include "config.h"  /* FI_CACHE_LINE, FI_TSAN, FI_DEBUG */
#endif

#include <stddef.h>

#include "filaments.h"
#include "atomic.h"
#include "tunables.h"

#define FI_HIDDEN __attribute__((visibility("hidden")))
#define FI_MUST_CHECK __attribute__((warn_unused_result))

#ifdef NDEBUG
#define FI_ASSERT(x) ((void)0)
#else
#include <assert.h>
#define FI_ASSERT(x) assert(x)
#endif

/* A filament [paper §4.1]: code and arguments, 32 bytes, no link, no stack.
 * The same layout as struct f_desc_ (filaments/inline-private.h), which the
 * inline creation path writes. */
struct fi_desc {
    f_func fn;
    long i;
    long j;
    void *arg;
};
_Static_assert(sizeof(struct fi_desc) == 4 * sizeof(void *), "fi_desc is four words");
_Static_assert(sizeof(struct fi_desc) == sizeof(struct f_desc_) &&
                   offsetof(struct fi_desc, arg) == offsetof(struct f_desc_, arg_),
               "fi_desc is f_desc_");

/* Drop a filament that will never run: what its creator must free (the
 * kinds' discards call it for each; f_finalize passes vararg.c's). */
typedef void (*fi_discard_fn)(f_func fn, void *arg);

struct fi_env;
struct fi_server;
/*
 * What a mechanism offers the life cycle (lifecycle.c), which calls each
 * hook of every mechanism in the order of its one list: NULL where the
 * mechanism has nothing to do.  All run on the main thread but open.
 * Each mechanism's header declares its own fi_<mechanism>_mechanism.
 */
struct fi_mechanism {
    /* f_initialize, the servers' array zeroed, their threads not started:
     * F_OK, or a failure with everything it did undone (free may be
     * called on what alloc zeroed only). */
    int (*alloc)(const struct fi_env *env);
    void (*open)(struct fi_server *me, int open);  /* on a server's thread: 1 first, 0 last */
    void (*ready)(int ready);    /* creation from the main thread: 1 between runs, 0 else */
    void (*begin_run)(void);     /* f_parallel, creation closed, the servers not yet woken */
    void (*end_run)(void);       /* f_parallel, the servers back: the run consumed it all */
    void (*print_stats)(void);   /* f_finalize, FILAMENTS_STATS=1 */
    void (*finalize)(void);      /* f_finalize, servers stopped: what outlives the library */
    void (*discard)(fi_discard_fn drop);  /* f_finalize, servers stopped: what never ran */
    void (*free)(void);          /* f_finalize after every discard, or alloc's undo */
};

#endif /* FI_BASE_H */
