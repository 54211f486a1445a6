/* aten::gelu.out, float32: approximate="none" is 0.5*x*(1+erf(x/sqrt(2))), "tanh" is
 * 0.5*x*(1+tanh(sqrt(2/pi)*(x+0.044715*x^3))); gelu(-inf) = 0 and gelu(inf) = inf as in
 * ExecuTorch's portable kernel. prepare reads `approximate` and picks the routine. */
#include <math.h>

#include "kernel_util.h"

#define GELU_SQRT1_2 0.70710678118654752440f /* 1/sqrt(2) */
#define GELU_BETA 0.79788456080286535588f    /* sqrt(2/pi) */
#define GELU_KAPPA 0.044715f

typedef struct gelu_state {
  uint32_t numel; /* elements of self and out */
} gelu_state;

/* gelu.out(Tensor self, *, str approximate="none", Tensor(a!) out) -> Tensor(a!):
 * args self, approximate, out, out. */
enum { GELU_SELF, GELU_APPROXIMATE, GELU_OUT };

/* gelu of every element of self: tanh_form picks the routine; the two callers below pass a
 * constant, so each compiles to its own loop. */
__attribute__((always_inline)) static inline tp_status gelu_f32(const tp_kernel_call *call, bool tanh_form) {
  const gelu_state *st = call->state;
  const float *x = (const float *)call->args[GELU_SELF]->as.tensor->data;
  float *o = (float *)call->args[GELU_OUT]->as.tensor->data;
  for (uint32_t i = 0; i < st->numel; i++) {
    const float v = x[i];
    if (isinf(v)) {
      o[i] = v > 0.0f ? v : 0.0f;
    } else if (tanh_form) {
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

/* approximate="none" */
static tp_status gelu_erf_f32(const tp_kernel_call *call) { return gelu_f32(call, false); }

/* approximate="tanh" */
static tp_status gelu_tanh_f32(const tp_kernel_call *call) { return gelu_f32(call, true); }

TP_KERNEL_WITH(aten, gelu, out, gelu_state, TP_KERNEL_DIM_ORDERS) {
  tp_float_map m;
  const char *approx;
  uint32_t approx_len;
  TP_TRY(tp_float_map_args(call->args, call->nargs, GELU_OUT, &m));
  TP_TRY(tp_arg_string(call->args, call->nargs, GELU_APPROXIMATE, &approx, &approx_len));
  if (tp_string_equals(approx, approx_len, "tanh")) {
    *run = gelu_tanh_f32;
  } else {
    TP_CHECK_ARGS(tp_string_equals(approx, approx_len, "none"));
    *run = gelu_erf_f32;
  }
  state->numel = m.n;
  return TP_OK;
}
