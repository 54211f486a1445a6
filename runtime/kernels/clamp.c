/* aten::clamp.out: out = min(max(self, min), max) with optional bounds (at least one given), as
 * ExecuTorch's portable kernel: float32 propagates NaN (input or bound); int32/int64 need integral
 * bounds that fit the dtype. If min > max every element becomes max, as in ATen. */
#include <math.h>

#include "kernel_util.h"

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

/* clamp.out(Tensor self, Scalar? min=None, Scalar? max=None, *, Tensor(a!) out) -> Tensor(a!) */
TP_KERNEL_LEGACY(aten, clamp, out) {
  TP_CHECK_ARGS(nargs == 5);
  tp_tensor *in, *out, *ret;
  TP_TRY(tp_arg_tensor(args, nargs, 0, &in));
  TP_TRY(tp_arg_tensor(args, nargs, 3, &out));
  TP_TRY(tp_arg_tensor(args, nargs, 4, &ret));
  if (in->dtype != out->dtype) {
    return TP_ERR_KERNEL_DTYPE;
  }
  bool has_min, has_max;
  switch (out->dtype) {
    case TP_DTYPE_FLOAT32: {
      double min_d, max_d;
      TP_TRY(tp_arg_optional_scalar(args, nargs, 1, &min_d, &has_min));
      TP_TRY(tp_arg_optional_scalar(args, nargs, 2, &max_d, &has_max));
      TP_CHECK_ARGS(has_min || has_max);
      /* Finite bounds beyond float range are rejected (the portable kernel's check_bounds). */
      TP_CHECK_ARGS(!has_min || float_range(min_d));
      TP_CHECK_ARGS(!has_max || float_range(max_d));
      TP_CHECK_ARGS(tp_same_shape(in, out));
      const float lo = (float)min_d;
      const float hi = (float)max_d;
      const float *x = (const float *)in->data;
      float *o = (float *)out->data;
      for (uint32_t i = 0; i < out->numel; i++) {
        float v = x[i];
        if (has_min && !isnan(v)) {
          v = isnan(lo) ? lo : (v < lo ? lo : v); /* max_override(v, lo) */
        }
        if (has_max && !isnan(v)) {
          v = isnan(hi) ? hi : (hi < v ? hi : v); /* min_override(v, hi) */
        }
        o[i] = v;
      }
      return TP_OK;
    }
    case TP_DTYPE_INT32: {
      int64_t lo = 0, hi = 0;
      TP_TRY(int_bound(args, nargs, 1, INT32_MIN, INT32_MAX, &lo, &has_min));
      TP_TRY(int_bound(args, nargs, 2, INT32_MIN, INT32_MAX, &hi, &has_max));
      TP_CHECK_ARGS(has_min || has_max);
      TP_CHECK_ARGS(tp_same_shape(in, out));
      const int32_t *x = (const int32_t *)in->data;
      int32_t *o = (int32_t *)out->data;
      for (uint32_t i = 0; i < out->numel; i++) {
        int32_t v = x[i];
        if (has_min && v < lo) {
          v = (int32_t)lo;
        }
        if (has_max && v > hi) {
          v = (int32_t)hi;
        }
        o[i] = v;
      }
      return TP_OK;
    }
    case TP_DTYPE_INT64: {
      int64_t lo = 0, hi = 0;
      TP_TRY(int_bound(args, nargs, 1, INT64_MIN, INT64_MAX, &lo, &has_min));
      TP_TRY(int_bound(args, nargs, 2, INT64_MIN, INT64_MAX, &hi, &has_max));
      TP_CHECK_ARGS(has_min || has_max);
      TP_CHECK_ARGS(tp_same_shape(in, out));
      const int64_t *x = (const int64_t *)in->data;
      int64_t *o = (int64_t *)out->data;
      for (uint32_t i = 0; i < out->numel; i++) {
        int64_t v = x[i];
        if (has_min && v < lo) {
          v = lo;
        }
        if (has_max && v > hi) {
          v = hi;
        }
        o[i] = v;
      }
      return TP_OK;
    }
    default:
      return TP_ERR_KERNEL_DTYPE;
  }
}
