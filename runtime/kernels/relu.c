/* aten::relu.out: out = max(self, 0) elementwise. As ExecuTorch's portable kernel, NaN and -0.0
 * pass through unchanged (x >= 0 || isnan(x) ? x : 0). float32, int32, int64. */
#include <math.h>

#include "kernel_util.h"

/* relu.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!) */
TP_KERNEL_LEGACY(aten, relu, out) {
  TP_CHECK_ARGS(nargs == 3);
  tp_tensor *in, *out, *ret;
  TP_TRY(tp_arg_tensor(args, nargs, 0, &in));
  TP_TRY(tp_arg_tensor(args, nargs, 1, &out));
  TP_TRY(tp_arg_tensor(args, nargs, 2, &ret));
  if (in->dtype != out->dtype) {
    return TP_ERR_KERNEL_DTYPE;
  }
  switch (out->dtype) {
    case TP_DTYPE_FLOAT32: {
      TP_CHECK_ARGS(tp_same_shape(in, out));
      const float *x = (const float *)in->data;
      float *o = (float *)out->data;
      for (uint32_t i = 0; i < out->numel; i++) {
        o[i] = (isnan(x[i]) || x[i] >= 0.0f) ? x[i] : 0.0f;
      }
      return TP_OK;
    }
    case TP_DTYPE_INT32: {
      TP_CHECK_ARGS(tp_same_shape(in, out));
      const int32_t *x = (const int32_t *)in->data;
      int32_t *o = (int32_t *)out->data;
      for (uint32_t i = 0; i < out->numel; i++) {
        o[i] = x[i] >= 0 ? x[i] : 0;
      }
      return TP_OK;
    }
    case TP_DTYPE_INT64: {
      TP_CHECK_ARGS(tp_same_shape(in, out));
      const int64_t *x = (const int64_t *)in->data;
      int64_t *o = (int64_t *)out->data;
      for (uint32_t i = 0; i < out->numel; i++) {
        o[i] = x[i] >= 0 ? x[i] : 0;
      }
      return TP_OK;
    }
    default:
      return TP_ERR_KERNEL_DTYPE;
  }
}
