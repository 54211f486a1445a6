/* Python's floor division (//) as ExecuTorch's portable kernels compute it, shared by
 * floor_divide and div's rounding_mode="floor". */
#ifndef TINYPTE_KERNELS_ENGINES_FLOOR_DIVIDE_H
#define TINYPTE_KERNELS_ENGINES_FLOOR_DIVIDE_H

#include <math.h>
#include <stdint.h>

/* (a - fmod(a, b)) / b, one less when the remainder's sign differs from b's; +-inf for b == 0
 * by a's sign. */
static inline float tp_floor_divide_f32(float a, float b) {
  if (b == 0.0f) {
    return signbit(a) ? -__builtin_inff() : __builtin_inff();
  }
  const float mod = fmodf(a, b);
  const float div = (a - mod) / b;
  return mod != 0.0f && signbit(b) != signbit(mod) ? div - 1.0f : div;
}

/* The quotient rounded toward minus infinity; b != 0 (callers check). INT64_MIN / -1 wraps. */
static inline int64_t tp_floor_divide_i64(int64_t a, int64_t b) {
  if (b == -1) {
    return (int64_t)(0u - (uint64_t)a);
  }
  const int64_t q = a / b;
  return (a < 0) != (b < 0) && a % b != 0 ? q - 1 : q;
}

#endif /* TINYPTE_KERNELS_ENGINES_FLOOR_DIVIDE_H */
