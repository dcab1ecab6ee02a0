/*
 * vararg.c - variable-argument filaments [paper §4.1].
 *
 * The arguments, described by a format string ('l' long, 'd' double,
 * 'p' pointer), are copied into a small block; the filament itself is an
 * ordinary descriptor whose function is a trampoline that calls the
 * program's function with the block.  So both kinds share the queues and
 * nothing checks which kind is running.  An RTC block is freed by the
 * trampoline after the call; an iterative block belongs to its phase.
 */
#include <stdarg.h>
#include <string.h>

#include "vararg.h"
#include "create.h"
#include "phase.h"
#include "rtc.h"
#include "memory.h"
#include "state.h"

struct vblock {
    f_vfunc fn;
    f_value args[];
};

static void run_once(long i, long j, void *arg)
{
    struct vblock *b = arg;
    b->fn(b->args);
    fi_free(b);
}

static void run_kept(long i, long j, void *arg)
{
    const struct vblock *b = arg;
    b->fn(b->args);
}

void fi_vararg_discard(f_func fn, void *arg)
{
    if (fn == run_once)
        fi_free(arg);
}

/* Copy the arguments into a new block: F_OK, F_EINVAL (format) or F_ENOMEM. */
static int pack(f_vfunc fn, const char *format, va_list ap, struct vblock **out)
{
    if (fn == NULL || format == NULL)
        return F_EINVAL;
    size_t n = strlen(format);
    if (n > F_MAX_ARGS || strspn(format, "ldp") != n)
        return F_EINVAL;
    struct vblock *b = fi_alloc(sizeof *b + (n > 0 ? n : 1) * sizeof(f_value));
    if (b == NULL)
        return F_ENOMEM;
    b->fn = fn;
    for (size_t k = 0; k < n; ++k) {
        switch (format[k]) {
        case 'l': b->args[k].l = va_arg(ap, long); break;
        case 'd': b->args[k].d = va_arg(ap, double); break;
        default: b->args[k].p = va_arg(ap, void *); break;
        }
    }
    *out = b;
    return F_OK;
}

int f_rtc_vthread(int server, f_vfunc fn, const char *format, ...)
{
    if (fi_self == NULL ? fi_check_main_between_runs() < 0 : fi_self->in_barrier)
        return F_ESTATE;
    struct vblock *b;
    va_list ap;
    va_start(ap, format);
    int rc = pack(fn, format, ap, &b);
    va_end(ap);
    if (rc < 0)
        return fi_created(fi_self, rc);
    struct fi_desc d = { run_once, 0, 0, b };
    if ((rc = fi_rtc_create(server, &d)) < 0)
        fi_free(b);
    return rc;
}

int f_iterative_vthread(int server, f_vfunc fn, const char *format, ...)
{
    /* From the main thread between runs, or from a server's creator. */
    struct fi_server *me = fi_self;
    if (me != NULL ? !me->creating : fi_check_main_between_runs() < 0)
        return F_ESTATE;
    if (fi_phases_count() == 0)
        return fi_created(me, F_ESTATE);
    struct vblock *b;
    va_list ap;
    va_start(ap, format);
    int rc = pack(fn, format, ap, &b);
    va_end(ap);
    if (rc < 0)
        return fi_created(me, rc);
    if ((rc = fi_phase_adopt(b)) < 0)
        goto undo_block;
    if ((rc = f_iterative_thread(server, run_kept, 0, 0, b)) < 0)
        goto undo_adopt;
    return F_OK;

undo_adopt:
    fi_phase_disown_last();
undo_block:
    fi_free(b);
    return fi_created(me, rc);
}

int f_vfork(f_vfunc fn, const char *format, ...)
{
    if (fi_self == NULL && fi_check_main_between_runs() < 0)
        return F_ESTATE;
    struct vblock *b;
    va_list ap;
    va_start(ap, format);
    int rc = pack(fn, format, ap, &b);
    va_end(ap);
    if (rc < 0)
        return rc;
    if ((rc = f_fork(run_once, 0, 0, b)) < 0)
        fi_free(b);
    return rc;
}
