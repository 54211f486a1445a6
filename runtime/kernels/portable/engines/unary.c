/* The one-input elementwise engine (engines/unary.h): a float32 fast path that calls the
 * operator's function on each element, and general paths through elem.h's loads and stores
 * for every other dtype pair. */
#include "portable/engines/unary.h"

#include "util/elem.h"

static tp_status unary_f32(const tp_kernel_call *call) {
  const tp_unary_state *st = call->state;
  const tp_unary_f32_fn f = st->fns->f32;
  const float *x = (const float *)call->args[0]->as.tensor->data;
  float *o = (float *)call->args[1]->as.tensor->data;
  for (uint32_t i = 0; i < st->numel; i++) {
    o[i] = f(x[i]);
  }
  return TP_OK;
}

/* self converted to float, f32, the result converted to out's dtype. */
static tp_status unary_via_f32(const tp_kernel_call *call) {
  const tp_unary_state *st = call->state;
  const tp_unary_f32_fn f = st->fns->f32;
  const void *x = call->args[0]->as.tensor->data;
  void *o = call->args[1]->as.tensor->data;
  for (uint32_t i = 0; i < st->numel; i++) {
    tp_elem_store_f64(o, st->out, i, (double)f((float)tp_elem_load_f64(x, st->in, i)));
  }
  return TP_OK;
}

/* Integer or bool self, same dtype out: the int64 function (bool: `b`). */
static tp_status unary_int(const tp_kernel_call *call) {
  const tp_unary_state *st = call->state;
  const tp_unary_i64_fn f = st->in == TP_DTYPE_BOOL ? st->fns->b : st->fns->i64;
  const void *x = call->args[0]->as.tensor->data;
  void *o = call->args[1]->as.tensor->data;
  for (uint32_t i = 0; i < st->numel; i++) {
    tp_elem_store_i64(o, st->out, i, f(tp_elem_load_i64(x, st->in, i)));
  }
  return TP_OK;
}

tp_status tp_unary_prepare(const tp_kernel_call *call, tp_unary_state *state, tp_kernel_run_fn *run,
                           const tp_unary_fns *fns, uint32_t out_index) {
  tp_tensor *in, *out;
  TP_TRY(tp_elementwise_args(call, out_index, &in, &out));
  TP_TRY(tp_out_shape(out, in->dim, in->sizes));
  if (!tp_dtype_is_real_or_bool(in->dtype) || !tp_dtype_is_real_or_bool(out->dtype)) {
    return TP_ERR_KERNEL_DTYPE;
  }
  state->fns = fns;
  state->numel = out->numel;
  state->in = (uint8_t)in->dtype;
  state->out = (uint8_t)out->dtype;
  switch (fns->out) {
    case TP_UNARY_SAME:
      if (in->dtype != out->dtype) {
        return TP_ERR_KERNEL_DTYPE;
      }
      if (in->dtype == TP_DTYPE_FLOAT32) {
        *run = unary_f32;
        return fns->f32 != 0 ? TP_OK : TP_ERR_KERNEL_DTYPE;
      }
      if ((in->dtype == TP_DTYPE_BOOL ? fns->b : fns->i64) == 0) {
        return TP_ERR_KERNEL_DTYPE;
      }
      *run = unary_int;
      return TP_OK;
    case TP_UNARY_TO_FLOAT:
      if (out->dtype != TP_DTYPE_FLOAT32) {
        return TP_ERR_KERNEL_DTYPE;
      }
      break;
    case TP_UNARY_TO_BOOL:
      if (out->dtype != TP_DTYPE_BOOL) {
        return TP_ERR_KERNEL_DTYPE;
      }
      break;
    case TP_UNARY_TO_ANY:
      break;
  }
  *run = in->dtype == TP_DTYPE_FLOAT32 && out->dtype == TP_DTYPE_FLOAT32 ? unary_f32 : unary_via_f32;
  return TP_OK;
}
