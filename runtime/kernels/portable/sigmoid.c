/* aten::sigmoid.out: out = 1 / (1 + exp(-self)) elementwise in float, float32 (the arithmetic of
 * ExecuTorch's portable kernel). */
#include <math.h>

#include "kernel_util.h"

typedef struct sigmoid_state {
  uint32_t numel; /* elements of self and out */
} sigmoid_state;

/* sigmoid.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!): args self, out, out. */
enum { SIGMOID_SELF, SIGMOID_OUT };

static tp_status sigmoid_f32(const tp_kernel_call *call) {
  const sigmoid_state *st = call->state;
  const float *x = (const float *)call->args[SIGMOID_SELF]->as.tensor->data;
  float *o = (float *)call->args[SIGMOID_OUT]->as.tensor->data;
  for (uint32_t i = 0; i < st->numel; i++) {
    o[i] = 1.0f / (1.0f + expf(-x[i]));
  }
  return TP_OK;
}

TP_KERNEL_WITH(aten, sigmoid, out, sigmoid_state, TP_KERNEL_DIM_ORDERS) {
  tp_float_map m;
  TP_TRY(tp_float_map_args(call->args, call->nargs, SIGMOID_OUT, &m));
  state->numel = m.n;
  *run = sigmoid_f32;
  return TP_OK;
}
