/* What the firmware checks of tests/kernels share: a seeded xorshift32 generator (each check
 * seeds it with its own constant, so its cases are the same on every board and run) and a
 * decimal console print. Header-only: each check is one firmware. */
#ifndef TINYPTE_TESTS_KERNELS_CHECK_RNG_H
#define TINYPTE_TESTS_KERNELS_CHECK_RNG_H

#include <stdint.h>

#include "tinypte/board.h"

static uint32_t check_rng_state = 1u;

static inline void check_seed(uint32_t seed) { check_rng_state = seed; }

static inline uint32_t rnd(void) {
  check_rng_state ^= check_rng_state << 13;
  check_rng_state ^= check_rng_state >> 17;
  check_rng_state ^= check_rng_state << 5;
  return check_rng_state;
}

/* A value in [lo, hi]. */
static inline int32_t range(int32_t lo, int32_t hi) { return lo + (int32_t)(rnd() % (uint32_t)(hi - lo + 1)); }

static inline void put_u32(uint32_t v) {
  char s[11];
  int n = 10;
  s[n] = '\0';
  do {
    s[--n] = (char)('0' + v % 10);
    v /= 10;
  } while (v != 0);
  tp_console_puts(s + n);
}

#endif /* TINYPTE_TESTS_KERNELS_CHECK_RNG_H */
