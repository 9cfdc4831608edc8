#ifndef PINDROP_CPREFETCH_H
#define PINDROP_CPREFETCH_H

/// Asks the core to start loading the cache line holding `address`, without waiting for it: the index reads many
/// fields of a few rows scattered through memory, and misses asked for together are waited for together.
static inline void pindrop_prefetch(const void *address) {
    __builtin_prefetch(address, 0, 3);
}

#endif
