/* aten::arange.out and aten::arange.start_out: out[i] = start + i * step, computed in double and
 * converted to out's dtype (any real dtype), as ExecuTorch's portable kernel; out must have
 * ceil((end - start) / step) elements (arange.out: start 0, step 1). Nothing depends on self:
 * prepare checks the length, run writes the values. */
#include <math.h>

#include "util/elem.h"
#include "kernel_util.h"

typedef struct arange_state {
  double start, step;
  uint32_t numel;
  uint8_t out_slot;
  uint8_t dtype;
} arange_state;

static tp_status arange_run(const tp_kernel_call *call) {
  const arange_state *st = call->state;
  void *o = call->args[st->out_slot]->as.tensor->data;
  for (uint32_t i = 0; i < st->numel; i++) {
    tp_elem_store_f64(o, st->dtype, i, st->start + (double)i * st->step);
  }
  return TP_OK;
}

static tp_status arange_prepare(const tp_kernel_call *call, arange_state *state, tp_kernel_run_fn *run, double start,
                                double end, double step, uint32_t out_slot) {
  tp_tensor *out, *ret;
  TP_CHECK_ARGS(call->nargs == out_slot + 2);
  TP_TRY(tp_arg_tensor(call->args, call->nargs, out_slot, &out));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, out_slot + 1, &ret));
  if (!tp_dtype_is_real(out->dtype)) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(step != 0.0 && step == step && start == start && end == end);
  const double n = ceil((end - start) / step);
  TP_CHECK_ARGS(n >= 0.0 && n < 4294967296.0);
  TP_CHECK_ARGS(out->dim == 1 && (double)out->sizes[0] == n);
  state->start = start;
  state->step = step;
  state->numel = out->numel;
  state->out_slot = (uint8_t)out_slot;
  state->dtype = (uint8_t)out->dtype;
  *run = arange_run;
  return TP_OK;
}

/* arange.out(Scalar end, *, Tensor(a!) out) -> Tensor(a!): args end, out, out. */
TP_KERNEL(aten, arange, out, arange_state) {
  double end;
  TP_TRY(tp_arg_scalar(call->args, call->nargs, 0, &end));
  return arange_prepare(call, state, run, 0.0, end, 1.0, 1);
}

/* arange.start_out(Scalar start, Scalar end, Scalar step=1, *, Tensor(a!) out) -> Tensor(a!): args
 * start, end, step, out, out. */
TP_KERNEL(aten, arange, start_out, arange_state) {
  double start, end, step;
  TP_TRY(tp_arg_scalar(call->args, call->nargs, 0, &start));
  TP_TRY(tp_arg_scalar(call->args, call->nargs, 1, &end));
  TP_TRY(tp_arg_scalar(call->args, call->nargs, 2, &step));
  return arange_prepare(call, state, run, start, end, step, 3);
}
