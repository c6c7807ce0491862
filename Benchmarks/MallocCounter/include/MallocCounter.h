#ifndef MALLOC_COUNTER_H
#define MALLOC_COUNTER_H

// Counts heap allocations made by the whole process (Swift runtime included), for the
// EngineBench benchmark only. See MallocCounter.c for how and why.

#ifdef __cplusplus
extern "C" {
#endif

/// The number of allocation calls (malloc, calloc, realloc, posix_memalign, aligned_alloc,
/// memalign) since the process started.
unsigned long mc_allocations(void);

/// The number of free calls with a non-NULL pointer since the process started.
unsigned long mc_frees(void);

#ifdef __cplusplus
}
#endif

#endif
