/* aten::gelu.out, float32: approximate="none" is 0.5*x*(1+erf(x/sqrt(2))), "tanh" is
 * 0.5*x*(1+tanh(sqrt(2/pi)*(x+0.044715*x^3))); gelu(-inf) = 0 and gelu(inf) = inf as in
 * ExecuTorch's portable kernel. */
#include <math.h>

#include "kernel_util.h"

#define GELU_SQRT1_2 0.70710678118654752440f /* 1/sqrt(2) */
#define GELU_BETA 0.79788456080286535588f    /* sqrt(2/pi) */
#define GELU_KAPPA 0.044715f

/* gelu.out(Tensor self, *, str approximate="none", Tensor(a!) out) -> Tensor(a!) */
TP_KERNEL(aten, gelu, out) {
  TP_CHECK_ARGS(nargs == 4);
  tp_tensor *in, *out, *ret;
  const char *approx;
  uint32_t approx_len;
  TP_TRY(tp_arg_tensor(args, nargs, 0, &in));
  TP_TRY(tp_arg_string(args, nargs, 1, &approx, &approx_len));
  TP_TRY(tp_arg_tensor(args, nargs, 2, &out));
  TP_TRY(tp_arg_tensor(args, nargs, 3, &ret));
  const bool use_tanh = tp_string_equals(approx, approx_len, "tanh");
  TP_CHECK_ARGS(use_tanh || tp_string_equals(approx, approx_len, "none"));
  if (in->dtype != TP_DTYPE_FLOAT32 || out->dtype != TP_DTYPE_FLOAT32) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(tp_same_shape(in, out));
  const float *x = (const float *)in->data;
  float *o = (float *)out->data;
  for (uint32_t i = 0; i < out->numel; i++) {
    const float v = x[i];
    if (isinf(v)) {
      o[i] = v > 0.0f ? v : 0.0f;
    } else if (use_tanh) {
      const float inner = GELU_BETA * (v + GELU_KAPPA * (v * v * v));
      o[i] = 0.5f * v * (1.0f + tanhf(inner));
    } else {
      /* 1 + erf(z) == erfc(-z); for z < 0 erfc avoids the cancellation float would suffer, so the
       * result stays as accurate as the portable kernel's (double-evaluated) erf form. */
      const float z = v * GELU_SQRT1_2;
      const float one_plus_erf = z >= 0.0f ? 1.0f + erff(z) : erfcf(-z);
      o[i] = 0.5f * v * one_plus_erf;
    }
  }
  return TP_OK;
}
