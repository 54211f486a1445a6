/* aten::leaky_relu.out: out = self >= 0 ? self : self * negative_slope elementwise, float32 (the
 * only real dtype ExecuTorch's portable kernel accepts besides half/bfloat16, which tinypte
 * refuses). NaN passes through (NaN >= 0 is false, NaN * slope is NaN). */
#include "kernel_util.h"

typedef struct leaky_relu_state {
  uint32_t numel; /* elements of self and out */
  float slope;    /* negative_slope as float */
} leaky_relu_state;

/* leaky_relu.out(Tensor self, Scalar negative_slope=0.01, *, Tensor(a!) out) -> Tensor(a!):
 * args self, negative_slope, out, out. */
enum { LEAKY_RELU_SELF, LEAKY_RELU_SLOPE, LEAKY_RELU_OUT };

static tp_status leaky_relu_f32(const tp_kernel_call *call) {
  const leaky_relu_state *st = call->state;
  const float slope = st->slope;
  const float *x = (const float *)call->args[LEAKY_RELU_SELF]->as.tensor->data;
  float *o = (float *)call->args[LEAKY_RELU_OUT]->as.tensor->data;
  for (uint32_t i = 0; i < st->numel; i++) {
    const float v = x[i];
    o[i] = v >= 0.0f ? v : v * slope;
  }
  return TP_OK;
}

TP_KERNEL_WITH(aten, leaky_relu, out, leaky_relu_state, TP_KERNEL_DIM_ORDERS) {
  tp_float_map map;
  double slope;
  TP_TRY(tp_float_map_args(call->args, call->nargs, LEAKY_RELU_OUT, &map));
  TP_TRY(tp_arg_scalar(call->args, call->nargs, LEAKY_RELU_SLOPE, &slope));
  state->numel = map.n;
  state->slope = (float)slope;
  *run = leaky_relu_f32;
  return TP_OK;
}
