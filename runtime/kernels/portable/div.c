/* aten::div.out and aten::div.Scalar_out: true division out = self / other (rounding_mode None),
 * with ATen broadcasting for the tensor overload. Computes in float like ExecuTorch's portable
 * kernel: out is float32; inputs are float32, or int32/int64 (converted to float first; for
 * div.Scalar_out also int8, uint8, int16 and bool, with the dtype extension).
 * prepare plans the broadcast (or converts the Scalar once) and picks the routine for the
 * input dtype. */
#include "portable/engines/dtypes.h"
#include "util/broadcast.h"
#include "util/elem.h"
#include "kernel_util.h"

/* div.out: how self and other broadcast into out. */
typedef struct div_state {
  tp_bcast_packed bcast; /* self (input 0) and other (input 1) against out */
} div_state;

/* div.Scalar_out: out = (float)self / c elementwise. */
typedef struct div_scalar_state {
  uint32_t numel; /* elements of self and out */
  float c;        /* other as float */
  uint8_t self;   /* self's dtype, for the generic routine */
} div_scalar_state;

/* div.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!) and
 * div.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!):
 * args self, other, out, out. */
enum { DIV_SELF, DIV_OTHER, DIV_OUT };

/* --- div.out --- */

static tp_status div_f32(const tp_kernel_call *call) {
  const div_state *st = call->state;
  tp_bcast bc;
  tp_bcast_unpack(&st->bcast, &bc);
  TP_BCAST_APPLY(bc, float, call->args[DIV_SELF]->as.tensor->data, float, call->args[DIV_OTHER]->as.tensor->data,
                 float, call->args[DIV_OUT]->as.tensor->data, x / y);
  return TP_OK;
}

static tp_status div_i32(const tp_kernel_call *call) {
  const div_state *st = call->state;
  tp_bcast bc;
  tp_bcast_unpack(&st->bcast, &bc);
  TP_BCAST_APPLY(bc, int32_t, call->args[DIV_SELF]->as.tensor->data, int32_t, call->args[DIV_OTHER]->as.tensor->data,
                 float, call->args[DIV_OUT]->as.tensor->data, (float)x / (float)y);
  return TP_OK;
}

static tp_status div_i64(const tp_kernel_call *call) {
  const div_state *st = call->state;
  tp_bcast bc;
  tp_bcast_unpack(&st->bcast, &bc);
  TP_BCAST_APPLY(bc, int64_t, call->args[DIV_SELF]->as.tensor->data, int64_t, call->args[DIV_OTHER]->as.tensor->data,
                 float, call->args[DIV_OUT]->as.tensor->data, (float)x / (float)y);
  return TP_OK;
}

TP_KERNEL_WITH(aten, div, out, div_state, TP_KERNEL_DYNAMIC_SHAPES | TP_KERNEL_DIM_ORDERS) {
  tp_tensor *a, *b, *out;
  TP_TRY(tp_elementwise_args(call, DIV_OUT, &a, &out));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, DIV_OTHER, &b));
  if (out->dtype != TP_DTYPE_FLOAT32 || a->dtype != b->dtype) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_TRY(tp_pick_run(a->dtype, div_f32, div_i32, div_i64, run));
  return tp_bcast_prepare(&state->bcast, a, b, out);
}

/* --- div.Scalar_out --- */

static tp_status div_scalar_f32(const tp_kernel_call *call) {
  const div_scalar_state *st = call->state;
  const float c = st->c;
  const float *x = (const float *)call->args[DIV_SELF]->as.tensor->data;
  float *o = (float *)call->args[DIV_OUT]->as.tensor->data;
  for (uint32_t i = 0; i < st->numel; i++) {
    o[i] = x[i] / c;
  }
  return TP_OK;
}

static tp_status div_scalar_i32(const tp_kernel_call *call) {
  const div_scalar_state *st = call->state;
  const float c = st->c;
  const int32_t *x = (const int32_t *)call->args[DIV_SELF]->as.tensor->data;
  float *o = (float *)call->args[DIV_OUT]->as.tensor->data;
  for (uint32_t i = 0; i < st->numel; i++) {
    o[i] = (float)x[i] / c;
  }
  return TP_OK;
}

static tp_status div_scalar_i64(const tp_kernel_call *call) {
  const div_scalar_state *st = call->state;
  const float c = st->c;
  const int64_t *x = (const int64_t *)call->args[DIV_SELF]->as.tensor->data;
  float *o = (float *)call->args[DIV_OUT]->as.tensor->data;
  for (uint32_t i = 0; i < st->numel; i++) {
    o[i] = (float)x[i] / c;
  }
  return TP_OK;
}

/* int8, uint8, int16 and bool selves, converted to float (the dtype extension's). */
static tp_status div_scalar_any(const tp_kernel_call *call) {
  const div_scalar_state *st = call->state;
  tp_dtypes_scalar(TP_DTYPES_DIV, call->args[DIV_SELF]->as.tensor->data, st->self,
                   call->args[DIV_OUT]->as.tensor->data, TP_DTYPE_FLOAT32, st->numel, st->c, 0u);
  return TP_OK;
}

TP_KERNEL_WITH(aten, div, Scalar_out, div_scalar_state, TP_KERNEL_DYNAMIC_SHAPES | TP_KERNEL_DIM_ORDERS) {
  tp_tensor *a, *out;
  double other;
  TP_TRY(tp_elementwise_args(call, DIV_OUT, &a, &out));
  TP_TRY(tp_arg_scalar(call->args, call->nargs, DIV_OTHER, &other));
  if (out->dtype != TP_DTYPE_FLOAT32) {
    return TP_ERR_KERNEL_DTYPE;
  }
  if (tp_pick_run(a->dtype, div_scalar_f32, div_scalar_i32, div_scalar_i64, run) != TP_OK) {
    if (!tp_dtype_is_real_or_bool(a->dtype)) {
      return TP_ERR_KERNEL_DTYPE;
    }
    if (tp_dtypes_scalar == NULL) {
      return TP_ERR_UNSUPPORTED; /* the dtype extension, which this firmware lacks */
    }
    *run = div_scalar_any;
  }
  TP_TRY(tp_out_shape(out, a->dim, a->sizes));
  state->c = (float)other;
  state->self = (uint8_t)a->dtype;
  state->numel = out->numel;
  return TP_OK;
}
