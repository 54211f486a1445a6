/* aten::hardtanh.out: out = min(max(self, min_val), max_val) elementwise, float32. NaN inputs
 * (and NaN bounds) propagate, like ExecuTorch's portable kernel (min/max_override). */
#include <math.h>

#include "kernel_util.h"

/* hardtanh.out(Tensor self, Scalar min_val=-1, Scalar max_val=1, *, Tensor(a!) out) -> Tensor(a!) */
TP_KERNEL_LEGACY(aten, hardtanh, out) {
  TP_CHECK_ARGS(nargs == 5);
  tp_tensor *in, *out, *ret;
  double min_d, max_d;
  TP_TRY(tp_arg_tensor(args, nargs, 0, &in));
  TP_TRY(tp_arg_scalar(args, nargs, 1, &min_d));
  TP_TRY(tp_arg_scalar(args, nargs, 2, &max_d));
  TP_TRY(tp_arg_tensor(args, nargs, 3, &out));
  TP_TRY(tp_arg_tensor(args, nargs, 4, &ret));
  if (in->dtype != TP_DTYPE_FLOAT32 || out->dtype != TP_DTYPE_FLOAT32) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(tp_same_shape(in, out));
  const float lo = (float)min_d;
  const float hi = (float)max_d;
  const float *x = (const float *)in->data;
  float *o = (float *)out->data;
  for (uint32_t i = 0; i < out->numel; i++) {
    float v = x[i];
    if (!isnan(v)) {
      v = isnan(lo) ? lo : (v < lo ? lo : v); /* max_override(v, lo) */
    }
    if (!isnan(v)) {
      v = isnan(hi) ? hi : (hi < v ? hi : v); /* min_override(v, hi) */
    }
    o[i] = v;
  }
  return TP_OK;
}
