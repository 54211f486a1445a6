/* aten::fill.Scalar_out and aten::fill.Tensor_out: out (self's shape and dtype) filled with one
 * value: a Scalar, or the single element of a 0-dim tensor (read at run time: it may be computed).
 * Any real dtype or bool; the value converts as a C cast would. */
#include "portable/engines/fill.h"

/* fill.Scalar_out(Tensor self, Scalar value, *, Tensor(a!) out): args self, value, out, out. */
TP_KERNEL(aten, fill, Scalar_out, tp_fill_state) {
  tp_tensor *in, *out;
  double v;
  TP_TRY(tp_elementwise_args(call, 2, &in, &out));
  TP_TRY(tp_arg_scalar(call->args, call->nargs, 1, &v));
  if (in->dtype != out->dtype) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(tp_same_shape(in, out));
  return tp_fill_state_prepare(state, out, 2, v, run);
}

typedef struct fill_tensor_state {
  uint32_t numel;
  uint8_t value_dtype, out_dtype;
} fill_tensor_state;

static tp_status fill_tensor_run(const tp_kernel_call *call) {
  const fill_tensor_state *st = call->state;
  const void *v = call->args[1]->as.tensor->data;
  void *o = call->args[2]->as.tensor->data;
  const double f = tp_elem_load_f64(v, st->value_dtype, 0);
  const int64_t i = tp_elem_load_i64(v, st->value_dtype, 0);
  for (uint32_t k = 0; k < st->numel; k++) {
    if (st->value_dtype == TP_DTYPE_FLOAT32) {
      tp_elem_store_f64(o, st->out_dtype, k, f);
    } else {
      tp_elem_store_i64(o, st->out_dtype, k, i);
    }
  }
  return TP_OK;
}

/* fill.Tensor_out(Tensor self, Tensor value, *, Tensor(a!) out): args self, value, out, out. */
TP_KERNEL(aten, fill, Tensor_out, fill_tensor_state) {
  tp_tensor *in, *value, *out;
  TP_TRY(tp_elementwise_args(call, 2, &in, &out));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, 1, &value));
  if (in->dtype != out->dtype || !tp_dtype_is_real_or_bool(out->dtype) || !tp_dtype_is_real_or_bool(value->dtype)) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(tp_same_shape(in, out) && value->dim == 0);
  state->numel = out->numel;
  state->value_dtype = (uint8_t)value->dtype;
  state->out_dtype = (uint8_t)out->dtype;
  *run = fill_tensor_run;
  return TP_OK;
}
