/* aten::relu.out: out = max(self, 0) elementwise. As ExecuTorch's portable kernel, NaN and -0.0
 * pass through unchanged (x >= 0 || isnan(x) ? x : 0). float32, int32, int64, and int8, uint8
 * and int16 with the dtype extension (engines/dtypes.h). */
#include <math.h>

#include "portable/engines/dtypes.h"
#include "kernel_util.h"
#include "util/elem.h"

typedef struct relu_state {
  tp_clamp fusable; /* float32: [0, +inf], for activation fusion */
  uint32_t numel;
  uint8_t dtype; /* for the generic routine */
} relu_state;

/* relu.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!): args self, out, out. */
enum { RELU_SELF, RELU_OUT, RELU_NARGS = 3 };

static tp_status relu_f32(const tp_kernel_call *call) {
  const relu_state *st = call->state;
  const float *x = (const float *)call->args[RELU_SELF]->as.tensor->data;
  float *o = (float *)call->args[RELU_OUT]->as.tensor->data;
  /* x < 0 is false for NaN and for -0.0: both pass through, as x >= 0 || isnan(x) ? x : 0
   * (one comparison instead of two). */
  for (uint32_t i = 0; i < st->numel; i++) {
    const float v = x[i];
    o[i] = v < 0.0f ? 0.0f : v;
  }
  return TP_OK;
}

static tp_status relu_i32(const tp_kernel_call *call) {
  const relu_state *st = call->state;
  const int32_t *x = (const int32_t *)call->args[RELU_SELF]->as.tensor->data;
  int32_t *o = (int32_t *)call->args[RELU_OUT]->as.tensor->data;
  for (uint32_t i = 0; i < st->numel; i++) {
    o[i] = x[i] >= 0 ? x[i] : 0;
  }
  return TP_OK;
}

static tp_status relu_i64(const tp_kernel_call *call) {
  const relu_state *st = call->state;
  const int64_t *x = (const int64_t *)call->args[RELU_SELF]->as.tensor->data;
  int64_t *o = (int64_t *)call->args[RELU_OUT]->as.tensor->data;
  for (uint32_t i = 0; i < st->numel; i++) {
    o[i] = x[i] >= 0 ? x[i] : 0;
  }
  return TP_OK;
}

/* int8, uint8 and int16: the dtype extension's. */
static tp_status relu_narrow(const tp_kernel_call *call) {
  const relu_state *st = call->state;
  tp_dtypes_clamp_int(call->args[RELU_SELF]->as.tensor->data, call->args[RELU_OUT]->as.tensor->data, st->dtype,
                      st->numel, 0, true, 0, false);
  return TP_OK;
}

TP_KERNEL_WITH(aten, relu, out, relu_state, TP_KERNEL_CLAMP | TP_KERNEL_DIM_ORDERS) {
  tp_tensor *in, *out, *ret;
  TP_CHECK_ARGS(call->nargs == RELU_NARGS);
  TP_TRY(tp_arg_tensor(call->args, call->nargs, RELU_SELF, &in));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, RELU_OUT, &out));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, RELU_OUT + 1, &ret));
  if (in->dtype != out->dtype) {
    return TP_ERR_KERNEL_DTYPE;
  }
  const bool narrow = out->dtype == TP_DTYPE_INT8 || out->dtype == TP_DTYPE_UINT8 || out->dtype == TP_DTYPE_INT16;
  if (narrow) {
    if (tp_dtypes_clamp_int == NULL) {
      return TP_ERR_UNSUPPORTED; /* the dtype extension, which this firmware lacks */
    }
    *run = relu_narrow;
  } else {
    TP_TRY(tp_pick_run(out->dtype, relu_f32, relu_i32, relu_i64, run));
  }
  state->dtype = (uint8_t)out->dtype;
  TP_CHECK_ARGS(tp_same_shape(in, out));
  if (!tp_same_memory_order(in, out)) {
    return TP_ERR_DIM_ORDER;
  }
  state->numel = out->numel;
  tp_clamp_offer(&state->fusable, out->dtype == TP_DTYPE_FLOAT32, 0.0f, INFINITY);
  return TP_OK;
}
