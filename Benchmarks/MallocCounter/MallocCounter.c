// Heap-allocation counter for benchmarks only.
//
// Why: the engine's hot path must not allocate, and the only trustworthy way to show that is
// to count every allocation the process makes, including the ones the Swift runtime makes on
// our behalf (array buffers, boxes, existential storage). Defining malloc and friends in the
// executable interposes them for every shared library too (the dynamic linker binds the
// runtime's calls to the executable's definitions first). Each wrapper bumps a relaxed atomic
// counter and forwards to glibc's internal entry points (__libc_malloc …), so behaviour is
// unchanged. This target must never be linked into a library or the shipped CLI.

#include "MallocCounter.h"

#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void __libc_free(void *pointer);

static _Atomic unsigned long allocation_count = 0;
static _Atomic unsigned long free_count = 0;

static inline void count_allocation(void) {
    atomic_fetch_add_explicit(&allocation_count, 1, memory_order_relaxed);
}

unsigned long mc_allocations(void) {
    return atomic_load_explicit(&allocation_count, memory_order_relaxed);
}

unsigned long mc_frees(void) {
    return atomic_load_explicit(&free_count, memory_order_relaxed);
}

void *malloc(size_t size) {
    count_allocation();
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    count_allocation();
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    count_allocation();
    return __libc_realloc(pointer, size);
}

void free(void *pointer) {
    if (pointer != NULL) {
        atomic_fetch_add_explicit(&free_count, 1, memory_order_relaxed);
    }
    __libc_free(pointer);
}

void *memalign(size_t alignment, size_t size) {
    count_allocation();
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    count_allocation();
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    // posix_memalign requires a power-of-two multiple of sizeof(void *).
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) {
        return EINVAL;
    }
    count_allocation();
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) {
        return ENOMEM;
    }
    *result = pointer;
    return 0;
}
