/* A kernel of a user's own, for an operator the portable kernels do not have:
 * tinypte_test::twice.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!), out = 2 * self
 * (float32). kernel_library's `srcs` compiles and registers it (see BUILD.bazel). */
#include "kernel_util.h"

TP_KERNEL(tinypte_test, twice, out) {
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
    o[i] = 2.0f * x[i];
  }
  return TP_OK;
}
