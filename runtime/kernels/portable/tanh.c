/* aten::tanh.out: out = tanh(self) elementwise, float32 (tanhf); an integer or bool self is
 * converted to float first, as ATen promotes it. */
#include <math.h>

#include "portable/engines/dtypes.h"
#include "kernel_util.h"
#include "util/elem.h"

typedef struct tanh_state {
  uint32_t numel; /* elements of self and out */
  uint8_t self;   /* self's dtype (float32, or what the promoted routine converts) */
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

/* An integer or bool self, converted to float first (ATen's promotion to a float32 out). */
static tp_status tanh_promoted(const tp_kernel_call *call) {
  const tanh_state *st = call->state;
  float *o = (float *)call->args[TANH_OUT]->as.tensor->data;
  tp_dtypes_to_f32(call->args[TANH_SELF]->as.tensor->data, st->self, o, st->numel);
  for (uint32_t i = 0; i < st->numel; i++) {
    o[i] = tanhf(o[i]);
  }
  return TP_OK;
}

TP_KERNEL_WITH(aten, tanh, out, tanh_state, TP_KERNEL_DIM_ORDERS) {
  tp_float_map m;
  TP_TRY(tp_float_map_promoted_args(call->args, call->nargs, TANH_OUT, &m, &state->self));
  state->numel = m.n;
  if (state->self != TP_DTYPE_FLOAT32 && tp_dtypes_to_f32 == NULL) {
    return TP_ERR_UNSUPPORTED; /* the dtype extension, which this firmware lacks */
  }
  *run = state->self == TP_DTYPE_FLOAT32 ? tanh_f32 : tanh_promoted;
  return TP_OK;
}
