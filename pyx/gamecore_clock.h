/* A monotonic wall clock in seconds, readable without the GIL (deadlines of the searches).
 * POSIX clock_gettime(CLOCK_MONOTONIC), or QueryPerformanceCounter on Windows. */
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
#else
#include <time.h>
static inline double gc_monotonic_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
#endif
#endif
