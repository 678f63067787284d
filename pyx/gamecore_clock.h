/* The clocks of the searches' deadlines, in seconds, readable without the GIL:
 * gc_monotonic_seconds, a monotonic wall clock (POSIX CLOCK_MONOTONIC, QueryPerformanceCounter
 * on Windows), and gc_thread_cpu_seconds, the CPU time of the calling thread (POSIX
 * CLOCK_THREAD_CPUTIME_ID, GetThreadTimes on Windows: user and kernel time), so that a budget
 * in CPU time means the same work on a loaded machine. gc_clock_seconds picks one. */
#ifndef GAMECORE_CLOCK_H
#define GAMECORE_CLOCK_H

#if defined(_WIN32)
#include <windows.h>
static __inline double gc_monotonic_seconds(void) {
    LARGE_INTEGER freq, count;
    QueryPerformanceFrequency(&freq);
    QueryPerformanceCounter(&count);
    return (double)count.QuadPart / (double)freq.QuadPart;
}
static __inline double gc_thread_cpu_seconds(void) {
    FILETIME created, exited, kernel, user;
    ULARGE_INTEGER k, u;
    if (!GetThreadTimes(GetCurrentThread(), &created, &exited, &kernel, &user))
        return 0.0;
    k.LowPart = kernel.dwLowDateTime;
    k.HighPart = kernel.dwHighDateTime;
    u.LowPart = user.dwLowDateTime;
    u.HighPart = user.dwHighDateTime;
    return (double)(k.QuadPart + u.QuadPart) * 1e-7; /* 100-nanosecond units */
}
#else
#include <time.h>
static inline double gc_monotonic_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
static inline double gc_thread_cpu_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
#endif

#if defined(_WIN32)
static __inline double gc_clock_seconds(int cpu) {
#else
static inline double gc_clock_seconds(int cpu) {
#endif
    return cpu ? gc_thread_cpu_seconds() : gc_monotonic_seconds();
}
#endif
