// Counts heap allocations made by the calling thread.
//
// The executable defines malloc and friends, so every call from Swift's runtime and Foundation
// reaches these first (ELF symbol interposition); each forwards to glibc's own entry point
// (`__libc_malloc`, exported by glibc for exactly this) so memory stays glibc's and `free` needs
// no wrapper. The counter is thread-local: no contention, and a measurement on one thread is not
// disturbed by allocations on others. On platforms other than glibc it counts nothing.
#include "MallocCounter.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__GLIBC__)
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static _Thread_local uint64_t allocations;

void *malloc(size_t size) {
  allocations++;
  return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
  allocations++;
  return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
  allocations++;
  return __libc_realloc(pointer, size);
}

void *memalign(size_t alignment, size_t size) {
  allocations++;
  return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
  allocations++;
  return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
  allocations++;
  void *pointer = __libc_memalign(alignment, size);
  if (pointer == NULL && size != 0) return ENOMEM;
  *result = pointer;
  return 0;
}

int apiary_malloc_counting(void) { return 1; }
uint64_t apiary_malloc_count(void) { return allocations; }
#else
int apiary_malloc_counting(void) { return 0; }
uint64_t apiary_malloc_count(void) { return 0; }
#endif
