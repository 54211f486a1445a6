/* aten::clamp.out: out = min(max(self, min), max) with optional bounds (at least one given), as
 * ExecuTorch's portable kernel: float32 propagates NaN (input or bound); the integer dtypes (uint8,
 * int8, int16, int32, int64) need integral bounds that fit the dtype; an integer or bool self
 * with float bounds goes to a float32 out (ATen's promotion). If min > max every element becomes max, as in ATen. prepare checks
 * and converts the bounds once and picks the routine for the dtype. */
#include <math.h>

#include "portable/engines/dtypes.h"
#include "kernel_util.h"
#include "util/elem.h"

/* The bounds in the dtype's terms (an absent bound is not read). */
typedef struct clamp_state {
  tp_clamp fusable; /* float32 with bounds that are not NaN (absent: -inf, +inf), for fusion */
  union {
    struct {
      float lo, hi;
    } f32;
    struct {
      int64_t lo, hi; /* int32 bounds are range-checked to int32 */
    } i64;
  } bound;
  uint32_t numel;      /* elements of self and out */
  bool has_min, has_max;
  uint8_t self;        /* self's dtype (the promoted routine's) */
} clamp_state;

/* clamp.out(Tensor self, Scalar? min=None, Scalar? max=None, *, Tensor(a!) out) -> Tensor(a!):
 * args self, min, max, out, out. */
enum { CLAMP_SELF, CLAMP_MIN, CLAMP_MAX, CLAMP_OUT };

/* NaN, an infinity, or a finite value float can hold. */
static bool float_range(double v) {
  return !isfinite(v) || (v >= -3.4028234663852886e38 && v <= 3.4028234663852886e38);
}

/* An optional integral bound that must fit [lo, hi]. */
static tp_status int_bound(tp_value *const *args, uint32_t nargs, uint32_t index, int64_t lo, int64_t hi,
                           int64_t *out, bool *present) {
  double unused;
  TP_TRY(tp_arg_optional_scalar(args, nargs, index, &unused, present));
  if (!*present) {
    return TP_OK;
  }
  TP_TRY(tp_arg_int_scalar(args, nargs, index, out));
  TP_CHECK_ARGS(*out >= lo && *out <= hi);
  return TP_OK;
}

/* One float32 element clamped as the portable kernel does. */
static inline float clamp_float(float v, const clamp_state *st) {
  const float lo = st->bound.f32.lo;
  const float hi = st->bound.f32.hi;
  if (st->has_min && !isnan(v)) {
    v = isnan(lo) ? lo : (v < lo ? lo : v); /* max_override(v, lo) */
  }
  if (st->has_max && !isnan(v)) {
    v = isnan(hi) ? hi : (hi < v ? hi : v); /* min_override(v, hi) */
  }
  return v;
}

static tp_status clamp_f32(const tp_kernel_call *call) {
  const clamp_state *st = call->state;
  const float *x = (const float *)call->args[CLAMP_SELF]->as.tensor->data;
  float *o = (float *)call->args[CLAMP_OUT]->as.tensor->data;
  for (uint32_t i = 0; i < st->numel; i++) {
    o[i] = clamp_float(x[i], st);
  }
  return TP_OK;
}

/* An integer or bool self with float bounds: promoted to a float32 out (ATen's result type). */
static tp_status clamp_promoted(const tp_kernel_call *call) {
  const clamp_state *st = call->state;
  float *o = (float *)call->args[CLAMP_OUT]->as.tensor->data;
  tp_dtypes_to_f32(call->args[CLAMP_SELF]->as.tensor->data, st->self, o, st->numel);
  for (uint32_t i = 0; i < st->numel; i++) {
    o[i] = clamp_float(o[i], st);
  }
  return TP_OK;
}

/* The integer routines: bounds already fit the dtype (int_bound). */
#define CLAMP_INT(fn, T)                                               \
  static tp_status fn(const tp_kernel_call *call) {                    \
    const clamp_state *st = call->state;                               \
    const bool has_min = st->has_min, has_max = st->has_max;           \
    const int64_t lo = st->bound.i64.lo;                               \
    const int64_t hi = st->bound.i64.hi;                               \
    const T *x = (const T *)call->args[CLAMP_SELF]->as.tensor->data;   \
    T *o = (T *)call->args[CLAMP_OUT]->as.tensor->data;                \
    for (uint32_t i = 0; i < st->numel; i++) {                         \
      int64_t v = x[i];                                                \
      if (has_min && v < lo) {                                         \
        v = lo;                                                        \
      }                                                                \
      if (has_max && v > hi) {                                         \
        v = hi;                                                        \
      }                                                                \
      o[i] = (T)v;                                                     \
    }                                                                  \
    return TP_OK;                                                      \
  }

CLAMP_INT(clamp_u8, uint8_t)
CLAMP_INT(clamp_i8, int8_t)
CLAMP_INT(clamp_i16, int16_t)
CLAMP_INT(clamp_i32, int32_t)
CLAMP_INT(clamp_i64, int64_t)

/* The routine of an integer dtype (one tp_dtype_int_range knows). */
static tp_kernel_run_fn int_routine(int dtype) {
  switch (dtype) {
    case TP_DTYPE_UINT8:
      return clamp_u8;
    case TP_DTYPE_INT8:
      return clamp_i8;
    case TP_DTYPE_INT16:
      return clamp_i16;
    case TP_DTYPE_INT32:
      return clamp_i32;
    default:
      return clamp_i64;
  }
}

TP_KERNEL_WITH(aten, clamp, out, clamp_state, TP_KERNEL_CLAMP | TP_KERNEL_DIM_ORDERS) {
  tp_tensor *in, *out;
  TP_TRY(tp_elementwise_args(call, CLAMP_OUT, &in, &out));
  const bool promoted = in->dtype != out->dtype && out->dtype == TP_DTYPE_FLOAT32 && tp_dtype_is_real_or_bool(in->dtype);
  if (in->dtype != out->dtype && !promoted) {
    return TP_ERR_KERNEL_DTYPE;
  }
  if (promoted && tp_dtypes_to_f32 == NULL) {
    return TP_ERR_UNSUPPORTED; /* the dtype extension, which this firmware lacks */
  }
  state->self = (uint8_t)in->dtype;
  bool has_min, has_max;
  switch (out->dtype) {
    case TP_DTYPE_FLOAT32: {
      double min_d, max_d;
      TP_TRY(tp_arg_optional_scalar(args, nargs, CLAMP_MIN, &min_d, &has_min));
      TP_TRY(tp_arg_optional_scalar(args, nargs, CLAMP_MAX, &max_d, &has_max));
      TP_CHECK_ARGS(has_min || has_max);
      /* Finite bounds beyond float range are rejected (the portable kernel's check_bounds). */
      TP_CHECK_ARGS(!has_min || float_range(min_d));
      TP_CHECK_ARGS(!has_max || float_range(max_d));
      state->bound.f32.lo = (float)min_d;
      state->bound.f32.hi = (float)max_d;
      *run = promoted ? clamp_promoted : clamp_f32;
      break;
    }
    default: {
      int64_t min_value, max_value, lo = 0, hi = 0;
      if (!tp_dtype_int_range(out->dtype, &min_value, &max_value)) {
        return TP_ERR_KERNEL_DTYPE;
      }
      *run = int_routine(out->dtype);
      TP_TRY(int_bound(args, nargs, CLAMP_MIN, min_value, max_value, &lo, &has_min));
      TP_TRY(int_bound(args, nargs, CLAMP_MAX, min_value, max_value, &hi, &has_max));
      TP_CHECK_ARGS(has_min || has_max);
      state->bound.i64.lo = lo;
      state->bound.i64.hi = hi;
      break;
    }
  }
  TP_CHECK_ARGS(tp_same_shape(in, out));
  state->has_min = has_min;
  state->has_max = has_max;
  state->numel = out->numel;
  tp_clamp_offer(&state->fusable, out->dtype == TP_DTYPE_FLOAT32 && !promoted, has_min ? state->bound.f32.lo : -INFINITY,
                 has_max ? state->bound.f32.hi : INFINITY);
  return TP_OK;
}
