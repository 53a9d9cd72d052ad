// What the process uses, for the benchmarks: malloc's view of the heap, which Swift's Glibc module
// does not export.
#ifndef CPROCESSSTATS_H
#define CPROCESSSTATS_H

#include <stddef.h>

#if defined(__GLIBC__) || defined(__linux__)
#include <malloc.h>

/// Bytes malloc has handed out and not yet been given back.
static inline size_t cps_heap_bytes_in_use(void) {
  struct mallinfo2 info = mallinfo2();
  return info.uordblks + info.hblkhd;
}

/// Returns free heap memory to the system, so that resident memory measured next starts low.
static inline void cps_trim_heap(void) { malloc_trim(0); }

/// Prints each arena's system and in-use bytes on standard error.
static inline void cps_malloc_stats(void) { malloc_stats(); }
#else
static inline size_t cps_heap_bytes_in_use(void) { return 0; }
static inline void cps_trim_heap(void) {}
static inline void cps_malloc_stats(void) {}
#endif

#endif
