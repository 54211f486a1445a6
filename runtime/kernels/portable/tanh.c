/* aten::tanh.out: out = tanh(self) elementwise, float32 (tanhf). */
#include <math.h>

#include "kernel_util.h"

typedef struct tanh_state {
  uint32_t numel; /* elements of self and out */
} tanh_state;

/* tanh.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!): args self, out, out. */
enum { TANH_SELF, TANH_OUT };

static tp_status tanh_f32(const tp_kernel_call *call) {
  const tanh_state *st = call->state;
  const float *x = (const float *)call->args[TANH_SELF]->as.tensor->data;
  float *o = (float *)call->args[TANH_OUT]->as.tensor->data;
  for (uint32_t i = 0; i < st->numel; i++) {
    o[i] = tanhf(x[i]);
  }
  return TP_OK;
}

TP_KERNEL_WITH(aten, tanh, out, tanh_state, TP_KERNEL_DIM_ORDERS) {
  tp_float_map m;
  TP_TRY(tp_float_map_args(call->args, call->nargs, TANH_OUT, &m));
  state->numel = m.n;
  *run = tanh_f32;
  return TP_OK;
}
