/* The arithmetic shared by aten::add and aten::sub (out and Scalar_out overloads):
 * out = self + sign * alpha * other, with ATen broadcasting for the tensor overload.
 * float32 computes in float (as ExecuTorch's portable kernels); integer dtypes wrap around
 * and need an integral alpha/other (bool: x + alpha * y is true when nonzero, a logical or).
 * The tensor overload takes one dtype for all tensors; Scalar_out also promotes an integer or
 * bool self to a float32 out (a float Scalar), as ATen does.
 * Negating alpha is exact, so sub gives the same bits as computing x - alpha * y.
 * prepare folds sign and alpha (and, for Scalar_out, other) into one constant of out's
 * dtype; run applies it with the routine prepare chose for that dtype. */
#include "portable/engines/add_sub.h"

#include "portable/engines/dtypes.h"
#include "util/elem.h"

/* --- add.out / sub.out --- */

static tp_status add_sub_f32(const tp_kernel_call *call) {
  const tp_add_sub_state *st = call->state;
  const float alpha = st->alpha.f32;
  tp_bcast bc;
  tp_bcast_unpack(&st->bcast, &bc);
  TP_BCAST_APPLY(bc, float, call->args[ADD_SUB_SELF]->as.tensor->data, float,
                 call->args[ADD_SUB_OTHER]->as.tensor->data, float, call->args[ADD_SUB_OUT]->as.tensor->data,
                 x + alpha * y);
  return TP_OK;
}

static tp_status add_sub_i32(const tp_kernel_call *call) {
  const tp_add_sub_state *st = call->state;
  const uint32_t al = st->alpha.u32;
  tp_bcast bc;
  tp_bcast_unpack(&st->bcast, &bc);
  TP_BCAST_APPLY(bc, int32_t, call->args[ADD_SUB_SELF]->as.tensor->data, int32_t,
                 call->args[ADD_SUB_OTHER]->as.tensor->data, int32_t, call->args[ADD_SUB_OUT]->as.tensor->data,
                 (int32_t)((uint32_t)x + al * (uint32_t)y));
  return TP_OK;
}

static tp_status add_sub_i64(const tp_kernel_call *call) {
  const tp_add_sub_state *st = call->state;
  const uint64_t al = st->alpha.u64;
  tp_bcast bc;
  tp_bcast_unpack(&st->bcast, &bc);
  TP_BCAST_APPLY(bc, int64_t, call->args[ADD_SUB_SELF]->as.tensor->data, int64_t,
                 call->args[ADD_SUB_OTHER]->as.tensor->data, int64_t, call->args[ADD_SUB_OUT]->as.tensor->data,
                 (int64_t)((uint64_t)x + al * (uint64_t)y));
  return TP_OK;
}

/* int8, uint8, int16 and bool: the dtype extension's (engines/dtypes.h). */
static tp_status add_sub_narrow(const tp_kernel_call *call) {
  const tp_add_sub_state *st = call->state;
  tp_bcast bc;
  tp_bcast_unpack(&st->bcast, &bc);
  tp_dtypes_bcast(&bc, st->dtype, TP_DTYPES_ADD, call->args[ADD_SUB_SELF]->as.tensor->data,
                  call->args[ADD_SUB_OTHER]->as.tensor->data, call->args[ADD_SUB_OUT]->as.tensor->data,
                  (int64_t)st->alpha.u64);
  return TP_OK;
}

tp_status tp_add_sub_prepare(const tp_kernel_call *call, tp_add_sub_state *state, tp_kernel_run_fn *run, int sign) {
  tp_value *const *args = call->args;
  const uint32_t nargs = call->nargs;
  tp_tensor *a, *b, *out;
  TP_TRY(tp_elementwise_args(call, ADD_SUB_OUT, &a, &out));
  TP_TRY(tp_arg_tensor(args, nargs, ADD_SUB_OTHER, &b));
  if (a->dtype != out->dtype || b->dtype != out->dtype) {
    return TP_ERR_KERNEL_DTYPE;
  }
  switch (out->dtype) {
    case TP_DTYPE_FLOAT32: {
      double alpha_d;
      TP_TRY(tp_arg_scalar(args, nargs, ADD_SUB_ALPHA, &alpha_d));
      state->alpha.f32 = (float)(sign * alpha_d);
      *run = add_sub_f32;
      break;
    }
    case TP_DTYPE_INT32: {
      int64_t alpha;
      TP_TRY(tp_arg_int_scalar(args, nargs, ADD_SUB_ALPHA, &alpha));
      state->alpha.u32 = ((uint32_t)alpha * (uint32_t)sign);
      *run = add_sub_i32;
      break;
    }
    case TP_DTYPE_INT64: {
      int64_t alpha;
      TP_TRY(tp_arg_int_scalar(args, nargs, ADD_SUB_ALPHA, &alpha));
      state->alpha.u64 = ((uint64_t)alpha * (uint64_t)(int64_t)sign);
      *run = add_sub_i64;
      break;
    }
    default: {
      int64_t alpha;
      if (!tp_dtype_is_narrow(out->dtype) || (out->dtype == TP_DTYPE_BOOL && sign < 0)) {
        return TP_ERR_KERNEL_DTYPE; /* ATen has no bool subtraction */
      }
      if (tp_dtypes_bcast == NULL) {
        return TP_ERR_UNSUPPORTED; /* the dtype extension, which this firmware lacks */
      }
      TP_TRY(tp_arg_int_scalar(args, nargs, ADD_SUB_ALPHA, &alpha));
      state->alpha.u64 = ((uint64_t)alpha * (uint64_t)(int64_t)sign);
      *run = add_sub_narrow;
      break;
    }
  }
  state->dtype = (uint8_t)out->dtype;
  return tp_bcast_prepare(&state->bcast, a, b, out);
}

/* --- add.Scalar_out / sub.Scalar_out --- */

static tp_status add_sub_scalar_f32(const tp_kernel_call *call) {
  const tp_add_sub_scalar_state *st = call->state;
  const float c = st->c.f32;
  const float *x = (const float *)call->args[ADD_SUB_SELF]->as.tensor->data;
  float *o = (float *)call->args[ADD_SUB_OUT]->as.tensor->data;
  for (uint32_t i = 0; i < st->numel; i++) {
    o[i] = x[i] + c;
  }
  return TP_OK;
}

static tp_status add_sub_scalar_i32(const tp_kernel_call *call) {
  const tp_add_sub_scalar_state *st = call->state;
  const uint32_t c = st->c.u32;
  const int32_t *x = (const int32_t *)call->args[ADD_SUB_SELF]->as.tensor->data;
  int32_t *o = (int32_t *)call->args[ADD_SUB_OUT]->as.tensor->data;
  for (uint32_t i = 0; i < st->numel; i++) {
    o[i] = (int32_t)((uint32_t)x[i] + c);
  }
  return TP_OK;
}

static tp_status add_sub_scalar_i64(const tp_kernel_call *call) {
  const tp_add_sub_scalar_state *st = call->state;
  const uint64_t c = st->c.u64;
  const int64_t *x = (const int64_t *)call->args[ADD_SUB_SELF]->as.tensor->data;
  int64_t *o = (int64_t *)call->args[ADD_SUB_OUT]->as.tensor->data;
  for (uint32_t i = 0; i < st->numel; i++) {
    o[i] = (int64_t)((uint64_t)x[i] + c);
  }
  return TP_OK;
}

/* The other dtypes (tp_scalar_fast_dtypes): an integer or bool self into a float32 out, or
 * integer outs of other widths, computed in int64 and stored wrapping. */
static tp_status add_sub_scalar_any(const tp_kernel_call *call) {
  const tp_add_sub_scalar_state *st = call->state;
  const bool promoted = st->out == TP_DTYPE_FLOAT32;
  tp_dtypes_scalar(TP_DTYPES_ADD, call->args[ADD_SUB_SELF]->as.tensor->data, st->self,
                   call->args[ADD_SUB_OUT]->as.tensor->data, st->out, st->numel, promoted ? st->c.f32 : 0.0f,
                   promoted ? 0u : st->c.u64);
  return TP_OK;
}

tp_status tp_add_sub_scalar_prepare(const tp_kernel_call *call, tp_add_sub_scalar_state *state, tp_kernel_run_fn *run,
                                    int sign) {
  tp_value *const *args = call->args;
  const uint32_t nargs = call->nargs;
  tp_tensor *a, *out;
  TP_TRY(tp_elementwise_args(call, ADD_SUB_OUT, &a, &out));
  const bool fast = tp_scalar_fast_dtypes(a->dtype, out->dtype);
  if (!tp_dtype_is_real_or_bool(a->dtype) || (!fast && a->dtype == TP_DTYPE_FLOAT32) ||
      (out->dtype == TP_DTYPE_BOOL && sign < 0)) {
    return TP_ERR_KERNEL_DTYPE;
  }
  if (!fast && tp_dtypes_scalar == NULL) {
    return TP_ERR_UNSUPPORTED; /* the dtype extension, which this firmware lacks */
  }
  state->self = (uint8_t)a->dtype;
  state->out = (uint8_t)out->dtype;
  switch (out->dtype) {
    case TP_DTYPE_FLOAT32: {
      double other_d, alpha_d;
      TP_TRY(tp_arg_scalar(args, nargs, ADD_SUB_OTHER, &other_d));
      TP_TRY(tp_arg_scalar(args, nargs, ADD_SUB_ALPHA, &alpha_d));
      state->c.f32 = (float)(sign * alpha_d) * (float)other_d;
      *run = fast ? add_sub_scalar_f32 : add_sub_scalar_any;
      break;
    }
    case TP_DTYPE_INT32: {
      int64_t other, alpha;
      TP_TRY(tp_arg_int_scalar(args, nargs, ADD_SUB_OTHER, &other));
      TP_TRY(tp_arg_int_scalar(args, nargs, ADD_SUB_ALPHA, &alpha));
      if (fast) {
        state->c.u32 = ((uint32_t)alpha * (uint32_t)sign) * (uint32_t)other;
      } else {
        state->c.u64 = ((uint64_t)alpha * (uint64_t)(int64_t)sign) * (uint64_t)other;
      }
      *run = fast ? add_sub_scalar_i32 : add_sub_scalar_any;
      break;
    }
    case TP_DTYPE_INT64: {
      int64_t other, alpha;
      TP_TRY(tp_arg_int_scalar(args, nargs, ADD_SUB_OTHER, &other));
      TP_TRY(tp_arg_int_scalar(args, nargs, ADD_SUB_ALPHA, &alpha));
      state->c.u64 = ((uint64_t)alpha * (uint64_t)(int64_t)sign) * (uint64_t)other;
      *run = fast ? add_sub_scalar_i64 : add_sub_scalar_any;
      break;
    }
    default: {
      int64_t other, alpha;
      if (!tp_dtype_is_real_or_bool(out->dtype)) {
        return TP_ERR_KERNEL_DTYPE;
      }
      TP_TRY(tp_arg_int_scalar(args, nargs, ADD_SUB_OTHER, &other));
      TP_TRY(tp_arg_int_scalar(args, nargs, ADD_SUB_ALPHA, &alpha));
      state->c.u64 = ((uint64_t)alpha * (uint64_t)(int64_t)sign) * (uint64_t)other;
      *run = add_sub_scalar_any;
      break;
    }
  }
  TP_TRY(tp_out_shape(out, a->dim, a->sizes));
  state->numel = out->numel;
  return TP_OK;
}
