// Counts heap allocations made by the calling thread.
//
// The executable defines malloc and friends, so every call from Swift's runtime and Foundation
// reaches these first (ELF symbol interposition); each forwards to glibc's own entry point
// (`__libc_malloc`, exported by glibc for exactly this) so memory stays glibc's and `free` needs
// no wrapper. The counter is thread-local: no contention, and a measurement on one thread is not
// disturbed by allocations on others. A process-wide counter, for work that hops threads, is
// only updated while switched on, so it costs one predictable branch otherwise. On platforms
// other than glibc it counts nothing.
#include "MallocCounter.h"

#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__GLIBC__)
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static _Thread_local uint64_t allocations;
static atomic_int counting_all_threads;
static atomic_uint_fast64_t all_threads;

static inline void note_allocation(void) {
  allocations++;
  if (atomic_load_explicit(&counting_all_threads, memory_order_relaxed)) {
    atomic_fetch_add_explicit(&all_threads, 1, memory_order_relaxed);
  }
}

void *malloc(size_t size) {
  note_allocation();
  return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
  note_allocation();
  return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
  note_allocation();
  return __libc_realloc(pointer, size);
}

void *memalign(size_t alignment, size_t size) {
  note_allocation();
  return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
  note_allocation();
  return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
  note_allocation();
  void *pointer = __libc_memalign(alignment, size);
  if (pointer == NULL && size != 0) return ENOMEM;
  *result = pointer;
  return 0;
}

int apiary_malloc_counting(void) { return 1; }
uint64_t apiary_malloc_count(void) { return allocations; }
void apiary_malloc_count_all_threads(int on) {
  atomic_store_explicit(&counting_all_threads, on, memory_order_relaxed);
}
uint64_t apiary_malloc_count_all(void) {
  return atomic_load_explicit(&all_threads, memory_order_relaxed);
}
#else
void apiary_malloc_count_all_threads(int on) { (void)on; }
uint64_t apiary_malloc_count_all(void) { return 0; }
int apiary_malloc_counting(void) { return 0; }
uint64_t apiary_malloc_count(void) { return 0; }
#endif
