/* aten::elu.out: out = x > 0 ? scale * x : alpha * scale * expm1(x * input_scale), elementwise,
 * float32 (the arithmetic of ExecuTorch's portable kernel, in float). */
#include <math.h>

#include "kernel_util.h"

typedef struct elu_state {
  uint32_t numel;
  float negcoef, scale, input_scale;
} elu_state;

/* elu.out(Tensor self, Scalar alpha=1, Scalar scale=1, Scalar input_scale=1, *, Tensor(a!) out): args
 * self, alpha, scale, input_scale, out, out. */
enum { ELU_SELF, ELU_ALPHA, ELU_SCALE, ELU_INPUT_SCALE, ELU_OUT };

static tp_status elu_f32(const tp_kernel_call *call) {
  const elu_state *st = call->state;
  const float *x = (const float *)call->args[ELU_SELF]->as.tensor->data;
  float *o = (float *)call->args[ELU_OUT]->as.tensor->data;
  for (uint32_t i = 0; i < st->numel; i++) {
    const float v = x[i];
    o[i] = v <= 0.0f ? expm1f(v * st->input_scale) * st->negcoef : v * st->scale;
  }
  return TP_OK;
}

TP_KERNEL_WITH(aten, elu, out, elu_state, TP_KERNEL_DIM_ORDERS) {
  tp_float_map map;
  double alpha, scale, input_scale;
  TP_TRY(tp_float_map_args(call->args, call->nargs, ELU_OUT, &map));
  TP_TRY(tp_arg_scalar(call->args, call->nargs, ELU_ALPHA, &alpha));
  TP_TRY(tp_arg_scalar(call->args, call->nargs, ELU_SCALE, &scale));
  TP_TRY(tp_arg_scalar(call->args, call->nargs, ELU_INPUT_SCALE, &input_scale));
  state->numel = map.n;
  state->negcoef = (float)(alpha * scale);
  state->scale = (float)scale;
  state->input_scale = (float)input_scale;
  *run = elu_f32;
  return TP_OK;
}
