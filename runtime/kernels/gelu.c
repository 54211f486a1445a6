/* aten::gelu.out, float32: approximate="none" is 0.5*x*(1+erf(x/sqrt(2))), "tanh" is
 * 0.5*x*(1+tanh(sqrt(2/pi)*(x+0.044715*x^3))); gelu(-inf) = 0 and gelu(inf) = inf as in
 * ExecuTorch's portable kernel. */
#include <math.h>

#include "kernel_util.h"

#define GELU_SQRT1_2 0.70710678118654752440f /* 1/sqrt(2) */
#define GELU_BETA 0.79788456080286535588f    /* sqrt(2/pi) */
#define GELU_KAPPA 0.044715f

/* gelu.out(Tensor self, *, str approximate="none", Tensor(a!) out) -> Tensor(a!) */
TP_KERNEL_LEGACY(aten, gelu, out) {
  tp_float_map m;
  const char *approx;
  uint32_t approx_len;
  TP_TRY(tp_float_map_args(args, nargs, 2, &m));
  TP_TRY(tp_arg_string(args, nargs, 1, &approx, &approx_len));
  const bool use_tanh = tp_string_equals(approx, approx_len, "tanh");
  TP_CHECK_ARGS(use_tanh || tp_string_equals(approx, approx_len, "none"));
  float *o = m.y;
  for (uint32_t i = 0; i < m.n; i++) {
    const float v = m.x[i];
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
