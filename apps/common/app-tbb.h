/*
 * app-tbb.h - what the oneTBB peers share (doc/benchmarks.md, "Peers"): run a body in a
 * task arena of `servers` threads, allowed by a global_control, both made
 * and destroyed inside the timed run, as the Filaments programs start and
 * end their servers; a TBB exception becomes app_fail().  C++ only.
 */
#ifndef APP_TBB_H
#define APP_TBB_H

#include <cstddef>
#include <exception>

#include <tbb/global_control.h>
#include <tbb/task_arena.h>

/* From app.h, which is C only. */
extern "C" [[noreturn]] void app_fail(const char *fmt, ...);
extern "C" void *app_alloc(std::size_t n, std::size_t size);
extern "C" void app_free(void *p);
extern "C" int app_peer_depth(int levels, int servers);

/* A thread's own value, a cache line of its own (app.h's struct app_slot). */
struct alignas(64) app_tbb_slot {
    double v;
};

template <typename Body> static void app_tbb_run(int servers, const Body &body)
{
    try {
        tbb::global_control allow(tbb::global_control::max_allowed_parallelism,
                                  static_cast<std::size_t>(servers));
        tbb::task_arena arena(servers);
        arena.execute(body);
    } catch (const std::exception &e) {
        app_fail("tbb: %s", e.what());
    }
}

/* This thread's index in the arena: 0 .. servers-1. */
static inline int app_tbb_thread(void)
{
    return tbb::this_task_arena::current_thread_index();
}

#endif /* APP_TBB_H */
