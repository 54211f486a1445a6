/* Element access by dtype, for kernels that accept many dtypes: load any supported element as a
 * double or an int64, store a double or an int64 as any supported element, and dtype classes.
 *
 * These are the general (mixed-dtype) paths: a kernel keeps a fast routine for its common
 * same-dtype cases and falls back to these for every other combination ExecuTorch accepts.
 * Conversions are C casts, except that a float stored to an integer dtype is made defined
 * first: NaN becomes 0 and values beyond the dtype's range saturate (a C cast would be undefined;
 * ExecuTorch's static_cast is too, so no conformance case depends on it). Stores to bool write
 * 1 for any non-zero value (NaN counts as non-zero, as in C++).
 */
#ifndef TINYPTE_KERNELS_UTIL_ELEM_H
#define TINYPTE_KERNELS_UTIL_ELEM_H

#include <stdbool.h>
#include <stdint.h>

#include "tinypte/value.h"

/* The dtypes ExecuTorch calls "real" (its REAL switch): integers and float32 (no bool). */
static inline bool tp_dtype_is_real(int dtype) {
  return dtype == TP_DTYPE_UINT8 || dtype == TP_DTYPE_INT8 || dtype == TP_DTYPE_INT16 || dtype == TP_DTYPE_INT32 ||
         dtype == TP_DTYPE_INT64 || dtype == TP_DTYPE_FLOAT32;
}

/* Integer dtypes (no bool). */
static inline bool tp_dtype_is_integer(int dtype) { return tp_dtype_is_real(dtype) && dtype != TP_DTYPE_FLOAT32; }

/* Real dtypes and bool: the dtypes tinypte computes with. */
static inline bool tp_dtype_is_real_or_bool(int dtype) { return tp_dtype_is_real(dtype) || dtype == TP_DTYPE_BOOL; }

/* Element i of `data` (of a real or bool dtype) as a double (int64 beyond 2^53 rounds). */
static inline double tp_elem_load_f64(const void *data, int dtype, uint32_t i) {
  switch (dtype) {
    case TP_DTYPE_UINT8: return ((const uint8_t *)data)[i];
    case TP_DTYPE_INT8: return ((const int8_t *)data)[i];
    case TP_DTYPE_INT16: return ((const int16_t *)data)[i];
    case TP_DTYPE_INT32: return ((const int32_t *)data)[i];
    case TP_DTYPE_INT64: return (double)((const int64_t *)data)[i];
    case TP_DTYPE_FLOAT32: return ((const float *)data)[i];
    case TP_DTYPE_BOOL: return ((const uint8_t *)data)[i] != 0 ? 1.0 : 0.0;
    default: return 0.0;
  }
}

/* Element i of `data` (of a real or bool dtype) as a float, each integer type converted
 * directly (as ATen converts an integer tensor it promotes to float32). */
static inline float tp_elem_load_f32(const void *data, int dtype, uint32_t i) {
  switch (dtype) {
    case TP_DTYPE_UINT8: return (float)((const uint8_t *)data)[i];
    case TP_DTYPE_INT8: return (float)((const int8_t *)data)[i];
    case TP_DTYPE_INT16: return (float)((const int16_t *)data)[i];
    case TP_DTYPE_INT32: return (float)((const int32_t *)data)[i];
    case TP_DTYPE_INT64: return (float)((const int64_t *)data)[i];
    case TP_DTYPE_FLOAT32: return ((const float *)data)[i];
    case TP_DTYPE_BOOL: return ((const uint8_t *)data)[i] != 0 ? 1.0f : 0.0f;
    default: return 0.0f;
  }
}

/* Element i of `data` (of a real or bool dtype) as an int64 (floats truncate toward zero,
 * NaN is 0, out-of-range values saturate). */
static inline int64_t tp_f64_to_i64(double v) {
  if (v != v) {
    return 0;
  }
  if (v >= 9223372036854775807.0) {
    return INT64_MAX;
  }
  if (v <= -9223372036854775808.0) {
    return INT64_MIN;
  }
  return (int64_t)v;
}

static inline int64_t tp_elem_load_i64(const void *data, int dtype, uint32_t i) {
  switch (dtype) {
    case TP_DTYPE_UINT8: return ((const uint8_t *)data)[i];
    case TP_DTYPE_INT8: return ((const int8_t *)data)[i];
    case TP_DTYPE_INT16: return ((const int16_t *)data)[i];
    case TP_DTYPE_INT32: return ((const int32_t *)data)[i];
    case TP_DTYPE_INT64: return ((const int64_t *)data)[i];
    case TP_DTYPE_FLOAT32: return tp_f64_to_i64(((const float *)data)[i]);
    case TP_DTYPE_BOOL: return ((const uint8_t *)data)[i] != 0;
    default: return 0;
  }
}

static inline int64_t tp_clamp_i64(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }

/* Store v as element i of `data` (of a real or bool dtype); integer dtypes wrap as C casts do
 * (two's complement), which is what ATen's integer arithmetic gives. */
static inline void tp_elem_store_i64(void *data, int dtype, uint32_t i, int64_t v) {
  switch (dtype) {
    case TP_DTYPE_UINT8: ((uint8_t *)data)[i] = (uint8_t)v; break;
    case TP_DTYPE_INT8: ((int8_t *)data)[i] = (int8_t)(uint8_t)v; break;
    case TP_DTYPE_INT16: ((int16_t *)data)[i] = (int16_t)(uint16_t)v; break;
    case TP_DTYPE_INT32: ((int32_t *)data)[i] = (int32_t)(uint32_t)v; break;
    case TP_DTYPE_INT64: ((int64_t *)data)[i] = v; break;
    case TP_DTYPE_FLOAT32: ((float *)data)[i] = (float)v; break;
    case TP_DTYPE_BOOL: ((uint8_t *)data)[i] = v != 0; break;
    default: break;
  }
}

/* Store v as element i of `data`: floats round to float32; integers through tp_f64_to_i64 (so
 * NaN is 0 and out-of-range values saturate to int64 before wrapping to the dtype). */
static inline void tp_elem_store_f64(void *data, int dtype, uint32_t i, double v) {
  if (dtype == TP_DTYPE_FLOAT32) {
    ((float *)data)[i] = (float)v;
  } else if (dtype == TP_DTYPE_BOOL) {
    ((uint8_t *)data)[i] = v != 0.0;
  } else {
    tp_elem_store_i64(data, dtype, i, tp_f64_to_i64(v));
  }
}

#endif /* TINYPTE_KERNELS_UTIL_ELEM_H */
