/* aten::sigmoid.out: out = 1 / (1 + exp(-self)) elementwise in float, float32 (the arithmetic of
 * ExecuTorch's portable kernel); an integer or bool self is converted to float first. */
#include <math.h>

#include "portable/engines/dtypes.h"
#include "kernel_util.h"
#include "util/elem.h"

typedef struct sigmoid_state {
  uint32_t numel; /* elements of self and out */
  uint8_t self;   /* self's dtype (float32, or what the promoted routine converts) */
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

/* An integer or bool self, converted to float first (ATen's promotion to a float32 out). */
static tp_status sigmoid_promoted(const tp_kernel_call *call) {
  const sigmoid_state *st = call->state;
  float *o = (float *)call->args[SIGMOID_OUT]->as.tensor->data;
  tp_dtypes_to_f32(call->args[SIGMOID_SELF]->as.tensor->data, st->self, o, st->numel);
  for (uint32_t i = 0; i < st->numel; i++) {
    o[i] = 1.0f / (1.0f + expf(-o[i]));
  }
  return TP_OK;
}

TP_KERNEL_WITH(aten, sigmoid, out, sigmoid_state, TP_KERNEL_DIM_ORDERS) {
  tp_float_map m;
  TP_TRY(tp_float_map_promoted_args(call->args, call->nargs, SIGMOID_OUT, &m, &state->self));
  state->numel = m.n;
  if (state->self != TP_DTYPE_FLOAT32 && tp_dtypes_to_f32 == NULL) {
    return TP_ERR_UNSUPPORTED; /* the dtype extension, which this firmware lacks */
  }
  *run = state->self == TP_DTYPE_FLOAT32 ? sigmoid_f32 : sigmoid_promoted;
  return TP_OK;
}
