#ifndef APIARY_MALLOC_COUNTER_H
#define APIARY_MALLOC_COUNTER_H

#include <stdint.h>

/// 1 when allocations are counted (glibc), 0 otherwise.
int apiary_malloc_counting(void);
/// Heap allocations (malloc, calloc, realloc, aligned) made so far by the calling thread.
uint64_t apiary_malloc_count(void);
/// Switches the process-wide counter on (1) or off (0).
void apiary_malloc_count_all_threads(int on);
/// Allocations made by any thread while the process-wide counter was on.
uint64_t apiary_malloc_count_all(void);

#endif
