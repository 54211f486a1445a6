/* The arithmetic of cortex_m::quantized_add (quantized_add.c): int8 + int8 -> int8 in CMSIS-NN's
 * fixed point, as the backend's reference. Each input's (q - zero_point) << 20 is requantized by
 * its multiplier and shift (a "term"), the two terms are added (int32, wrapping), the sum is
 * requantized by the output multiplier and shift, offset by the output zero point and clamped.
 *
 * tp_s8_add_one is that definition, element by element (tp_requantize). tp_s8_add_same_shape
 * runs it over inputs of one shape: when no shift is a left shift (-31..0, what the backend's
 * multipliers give: each input's scale over twice the larger one, the sum's over 2^20 times
 * the output's), each requantization is SMMULR's rounding product of the doubled
 * value followed by a rounding right shift (the arithmetic of tp_requantize's fast path, which
 * cannot overflow here: |q - zp| <= 255, so terms stay within 2^28), four lanes a vector on
 * Helium; otherwise element by element. Bit-exact with tp_s8_add_one
 * (runtime/kernels/tests/s8_add_check.c). */
#ifndef TINYPTE_KERNELS_CORTEX_M_ENGINES_S8_ADD_H
#define TINYPTE_KERNELS_CORTEX_M_ENGINES_S8_ADD_H

#include <stdint.h>

#include "cortex_m/engines/int8_util.h"

typedef struct tp_s8_add {
  int32_t zp[2], mult[2], shift[2]; /* self, other */
  int32_t out_zp, out_mult, out_shift;
  int32_t lo, hi; /* activation range */
} tp_s8_add;

/* One input's term: requantize((q - zero_point) << 20) (|q - zp| <= 255: no overflow). */
static inline int32_t tp_s8_add_term(int32_t q, int32_t zp, int32_t mult, int32_t shift) {
  return tp_requantize((int32_t)((uint32_t)(q - zp) << 20), mult, shift);
}

/* The out byte of x + y, by the definition. */
static inline int8_t tp_s8_add_one(const tp_s8_add *a, int32_t x, int32_t y) {
  const uint32_t sum = (uint32_t)tp_s8_add_term(x, a->zp[0], a->mult[0], a->shift[0]) +
                       (uint32_t)tp_s8_add_term(y, a->zp[1], a->mult[1], a->shift[1]);
  const uint32_t r = (uint32_t)tp_requantize((int32_t)sum, a->out_mult, a->out_shift) + (uint32_t)a->out_zp;
  return (int8_t)tp_clamp_i32((int32_t)r, a->lo, a->hi);
}

/** out[i] = x[i] + y[i] for i < n (inputs of one shape), the fastest way this core has. */
void tp_s8_add_same_shape(const tp_s8_add *a, const int8_t *x, const int8_t *y, int8_t *out, uint32_t n);

/** The name of the path tp_s8_add_same_shape takes for `a` on this core: "mve", "dsp" (the
 *  SMMULR loop in assembly: the inputs' shifts -31..0, the sum's -31..-1), "quick" (the SMMULR arithmetic in C) or
 *  "general" (element by element). */
const char *tp_s8_add_path(const tp_s8_add *a);

#endif /* TINYPTE_KERNELS_CORTEX_M_ENGINES_S8_ADD_H */
