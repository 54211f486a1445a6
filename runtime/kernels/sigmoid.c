/* aten::sigmoid.out: out = 1 / (1 + exp(-self)) elementwise in float, float32 (the arithmetic of
 * ExecuTorch's portable kernel). */
#include <math.h>

#include "kernel_util.h"

/* sigmoid.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!) */
TP_KERNEL(aten, sigmoid, out) {
  TP_CHECK_ARGS(nargs == 3);
  tp_tensor *in, *out, *ret;
  TP_TRY(tp_arg_tensor(args, nargs, 0, &in));
  TP_TRY(tp_arg_tensor(args, nargs, 1, &out));
  TP_TRY(tp_arg_tensor(args, nargs, 2, &ret));
  if (in->dtype != TP_DTYPE_FLOAT32 || out->dtype != TP_DTYPE_FLOAT32) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(tp_same_shape(in, out));
  const float *x = (const float *)in->data;
  float *o = (float *)out->data;
  for (uint32_t i = 0; i < out->numel; i++) {
    o[i] = 1.0f / (1.0f + expf(-x[i]));
  }
  return TP_OK;
}
