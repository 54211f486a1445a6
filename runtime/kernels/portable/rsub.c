/* aten::rsub.Scalar_out: out = other - alpha * self elementwise (a Scalar minus a tensor, how
 * `2.0 - x` exports). float32 computes in float; integer self with integral other and alpha in
 * int64, wrapping into out's dtype; an integer self with a Double other computes in float with a
 * float32 out. */
#include "util/elem.h"
#include "kernel_util.h"

typedef struct rsub_state {
  double other_f, alpha_f;  /* float computation */
  int64_t other_i, alpha_i; /* integer computation */
  uint32_t numel;
  uint8_t in, out;          /* dtypes */
  bool in_float;
} rsub_state;

/* rsub.Scalar_out(Tensor self, Scalar other, Scalar alpha=1, *, Tensor(a!) out): args self, other,
 * alpha, out, out. */
enum { RSUB_SELF, RSUB_OTHER, RSUB_ALPHA, RSUB_OUT };

static tp_status rsub_run(const tp_kernel_call *call) {
  const rsub_state *st = call->state;
  const void *x = call->args[RSUB_SELF]->as.tensor->data;
  void *o = call->args[RSUB_OUT]->as.tensor->data;
  if (st->in_float) {
    const float other = (float)st->other_f, alpha = (float)st->alpha_f;
    for (uint32_t i = 0; i < st->numel; i++) {
      const float v = (float)tp_elem_load_f64(x, st->in, i);
      tp_elem_store_f64(o, st->out, i, (double)(other - alpha * v));
    }
  } else {
    for (uint32_t i = 0; i < st->numel; i++) {
      const uint64_t v = (uint64_t)tp_elem_load_i64(x, st->in, i);
      tp_elem_store_i64(o, st->out, i, (int64_t)((uint64_t)st->other_i - (uint64_t)st->alpha_i * v));
    }
  }
  return TP_OK;
}

TP_KERNEL(aten, rsub, Scalar_out, rsub_state) {
  tp_tensor *in, *out;
  TP_TRY(tp_elementwise_args(call, RSUB_OUT, &in, &out));
  TP_CHECK_ARGS(tp_same_shape(in, out));
  if (!tp_dtype_is_real(in->dtype) || !tp_dtype_is_real(out->dtype)) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_TRY(tp_arg_scalar(call->args, call->nargs, RSUB_OTHER, &state->other_f));
  TP_TRY(tp_arg_scalar(call->args, call->nargs, RSUB_ALPHA, &state->alpha_f));
  state->in_float = in->dtype == TP_DTYPE_FLOAT32 || call->args[RSUB_OTHER]->tag == TP_TAG_DOUBLE ||
                    call->args[RSUB_ALPHA]->tag == TP_TAG_DOUBLE;
  if (state->in_float) {
    if (out->dtype != TP_DTYPE_FLOAT32) {
      return TP_ERR_KERNEL_DTYPE;
    }
  } else {
    TP_TRY(tp_arg_int_scalar(call->args, call->nargs, RSUB_OTHER, &state->other_i));
    TP_TRY(tp_arg_int_scalar(call->args, call->nargs, RSUB_ALPHA, &state->alpha_i));
  }
  state->numel = out->numel;
  state->in = (uint8_t)in->dtype;
  state->out = (uint8_t)out->dtype;
  *run = rsub_run;
  return TP_OK;
}
