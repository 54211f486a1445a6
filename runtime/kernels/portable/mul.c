/* aten::mul.out and aten::mul.Scalar_out: out = self * other, with ATen broadcasting for the
 * tensor overload. float32 multiplies in float; integer dtypes wrap around and need an integral
 * Scalar (int8, uint8, int16 and bool with the dtype extension, engines/dtypes.h). The tensor
 * overload takes one dtype for all tensors; Scalar_out also promotes an integer or bool self to
 * a float32 out (a float Scalar). prepare plans the broadcast (or converts the Scalar once) and
 * picks the routine for out's dtype. */
#include "portable/engines/dtypes.h"
#include "util/broadcast.h"
#include "util/elem.h"
#include "kernel_util.h"

/* mul.out: how self and other broadcast into out. */
typedef struct mul_state {
  tp_bcast_packed bcast; /* self (input 0) and other (input 1) against out */
  uint8_t dtype;         /* out's, for the narrow routine */
} mul_state;

/* mul.Scalar_out: out = self * c elementwise. */
typedef struct mul_scalar_state {
  uint32_t numel;         /* elements of self and out */
  tp_elementwise_const c; /* other in out's dtype (int64 for the generic routine's integer outs) */
  uint8_t self, out;      /* dtypes, for the generic routine */
} mul_scalar_state;

/* mul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!) and
 * mul.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!):
 * args self, other, out, out. */
enum { MUL_SELF, MUL_OTHER, MUL_OUT };

/* --- mul.out --- */

static tp_status mul_f32(const tp_kernel_call *call) {
  const mul_state *st = call->state;
  tp_bcast bc;
  tp_bcast_unpack(&st->bcast, &bc);
  TP_BCAST_APPLY(bc, float, call->args[MUL_SELF]->as.tensor->data, float, call->args[MUL_OTHER]->as.tensor->data,
                 float, call->args[MUL_OUT]->as.tensor->data, x * y);
  return TP_OK;
}

static tp_status mul_i32(const tp_kernel_call *call) {
  const mul_state *st = call->state;
  tp_bcast bc;
  tp_bcast_unpack(&st->bcast, &bc);
  TP_BCAST_APPLY(bc, int32_t, call->args[MUL_SELF]->as.tensor->data, int32_t, call->args[MUL_OTHER]->as.tensor->data,
                 int32_t, call->args[MUL_OUT]->as.tensor->data, (int32_t)((uint32_t)x * (uint32_t)y));
  return TP_OK;
}

static tp_status mul_i64(const tp_kernel_call *call) {
  const mul_state *st = call->state;
  tp_bcast bc;
  tp_bcast_unpack(&st->bcast, &bc);
  TP_BCAST_APPLY(bc, int64_t, call->args[MUL_SELF]->as.tensor->data, int64_t, call->args[MUL_OTHER]->as.tensor->data,
                 int64_t, call->args[MUL_OUT]->as.tensor->data, (int64_t)((uint64_t)x * (uint64_t)y));
  return TP_OK;
}

/* int8, uint8, int16 and bool (a logical and), wrapping: the dtype extension's. */
static tp_status mul_narrow(const tp_kernel_call *call) {
  const mul_state *st = call->state;
  tp_bcast bc;
  tp_bcast_unpack(&st->bcast, &bc);
  tp_dtypes_bcast(&bc, st->dtype, TP_DTYPES_MUL, call->args[MUL_SELF]->as.tensor->data,
                  call->args[MUL_OTHER]->as.tensor->data, call->args[MUL_OUT]->as.tensor->data, 0);
  return TP_OK;
}

TP_KERNEL_WITH(aten, mul, out, mul_state, TP_KERNEL_DYNAMIC_SHAPES | TP_KERNEL_DIM_ORDERS) {
  tp_tensor *a, *b, *out;
  TP_TRY(tp_elementwise_args(call, MUL_OUT, &a, &out));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, MUL_OTHER, &b));
  if (a->dtype != out->dtype || b->dtype != out->dtype) {
    return TP_ERR_KERNEL_DTYPE;
  }
  if (tp_dtype_is_narrow(out->dtype)) {
    if (tp_dtypes_bcast == NULL) {
      return TP_ERR_UNSUPPORTED; /* the dtype extension, which this firmware lacks */
    }
    *run = mul_narrow;
  } else {
    TP_TRY(tp_pick_run(out->dtype, mul_f32, mul_i32, mul_i64, run));
  }
  state->dtype = (uint8_t)out->dtype;
  return tp_bcast_prepare(&state->bcast, a, b, out);
}

/* --- mul.Scalar_out --- */

static tp_status mul_scalar_f32(const tp_kernel_call *call) {
  const mul_scalar_state *st = call->state;
  const float c = st->c.f32;
  const float *x = (const float *)call->args[MUL_SELF]->as.tensor->data;
  float *o = (float *)call->args[MUL_OUT]->as.tensor->data;
  for (uint32_t i = 0; i < st->numel; i++) {
    o[i] = x[i] * c;
  }
  return TP_OK;
}

static tp_status mul_scalar_i32(const tp_kernel_call *call) {
  const mul_scalar_state *st = call->state;
  const uint32_t c = st->c.u32;
  const int32_t *x = (const int32_t *)call->args[MUL_SELF]->as.tensor->data;
  int32_t *o = (int32_t *)call->args[MUL_OUT]->as.tensor->data;
  for (uint32_t i = 0; i < st->numel; i++) {
    o[i] = (int32_t)((uint32_t)x[i] * c);
  }
  return TP_OK;
}

static tp_status mul_scalar_i64(const tp_kernel_call *call) {
  const mul_scalar_state *st = call->state;
  const uint64_t c = st->c.u64;
  const int64_t *x = (const int64_t *)call->args[MUL_SELF]->as.tensor->data;
  int64_t *o = (int64_t *)call->args[MUL_OUT]->as.tensor->data;
  for (uint32_t i = 0; i < st->numel; i++) {
    o[i] = (int64_t)((uint64_t)x[i] * c);
  }
  return TP_OK;
}

/* The other dtypes (tp_scalar_fast_dtypes): an integer or bool self into a float32 out, or
 * integer and bool outs of other widths, computed in int64 and stored wrapping. */
static tp_status mul_scalar_any(const tp_kernel_call *call) {
  const mul_scalar_state *st = call->state;
  const bool promoted = st->out == TP_DTYPE_FLOAT32;
  tp_dtypes_scalar(TP_DTYPES_MUL, call->args[MUL_SELF]->as.tensor->data, st->self, call->args[MUL_OUT]->as.tensor->data,
                   st->out, st->numel, promoted ? st->c.f32 : 0.0f, promoted ? 0u : st->c.u64);
  return TP_OK;
}

TP_KERNEL_WITH(aten, mul, Scalar_out, mul_scalar_state, TP_KERNEL_DYNAMIC_SHAPES | TP_KERNEL_DIM_ORDERS) {
  tp_tensor *a, *out;
  TP_TRY(tp_elementwise_args(call, MUL_OUT, &a, &out));
  const bool fast = tp_scalar_fast_dtypes(a->dtype, out->dtype);
  if (!tp_dtype_is_real_or_bool(a->dtype) || !tp_dtype_is_real_or_bool(out->dtype) ||
      (!fast && a->dtype == TP_DTYPE_FLOAT32)) {
    return TP_ERR_KERNEL_DTYPE;
  }
  state->self = (uint8_t)a->dtype;
  state->out = (uint8_t)out->dtype;
  if (!fast && tp_dtypes_scalar == NULL) {
    return TP_ERR_UNSUPPORTED; /* the dtype extension, which this firmware lacks */
  }
  if (!fast) {
    if (out->dtype == TP_DTYPE_FLOAT32) {
      double other;
      TP_TRY(tp_arg_scalar(call->args, call->nargs, MUL_OTHER, &other));
      state->c.f32 = (float)other;
    } else {
      int64_t other;
      TP_TRY(tp_arg_int_scalar(call->args, call->nargs, MUL_OTHER, &other));
      state->c.u64 = (uint64_t)other;
    }
    *run = mul_scalar_any;
    TP_TRY(tp_out_shape(out, a->dim, a->sizes));
    state->numel = out->numel;
    return TP_OK;
  }
  switch (out->dtype) {
    case TP_DTYPE_FLOAT32: {
      double other;
      TP_TRY(tp_arg_scalar(call->args, call->nargs, MUL_OTHER, &other));
      state->c.f32 = (float)other;
      *run = mul_scalar_f32;
      break;
    }
    case TP_DTYPE_INT32: {
      int64_t other;
      TP_TRY(tp_arg_int_scalar(call->args, call->nargs, MUL_OTHER, &other));
      state->c.u32 = (uint32_t)other;
      *run = mul_scalar_i32;
      break;
    }
    case TP_DTYPE_INT64: {
      int64_t other;
      TP_TRY(tp_arg_int_scalar(call->args, call->nargs, MUL_OTHER, &other));
      state->c.u64 = (uint64_t)other;
      *run = mul_scalar_i64;
      break;
    }
    default:
      return TP_ERR_KERNEL_DTYPE;
  }
  TP_TRY(tp_out_shape(out, a->dim, a->sizes));
  state->numel = out->numel;
  return TP_OK;
}
