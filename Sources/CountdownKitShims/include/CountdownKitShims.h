#ifndef COUNTDOWNKIT_SHIMS_H
#define COUNTDOWNKIT_SHIMS_H

/// Asks the processor to fetch the cache line at `address` without waiting for it: a hint that never
/// faults and never blocks, used to overlap the cache misses of a batch of scattered reads.
static inline void countdownkit_prefetch(const void *address) {
  __builtin_prefetch(address, 0, 3);
}

#endif
