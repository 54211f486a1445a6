/* aten::any: whether any element is non-zero (NaN counts), over everything (any.all_out), one dim
 * (any.out) or a list of dims (any.dims_out, None: all). self any real dtype or bool; out bool
 * (or uint8, holding 1/0). An empty reduction is false. */
#include "portable/engines/fold.h"

static void any_start(tp_fold *f) { f->iacc = 0; }

static void any_step(tp_fold *f, double v, int64_t iv, uint32_t r) {
  (void)iv;
  (void)r;
  if (v != 0.0) { /* NaN != 0 */
    f->iacc = 1;
  }
}

static double any_result(const tp_fold *f) { return (double)f->iacc; }

static const tp_fold_fns any_fns = {any_start, any_step, 0, 0, any_result, true};

static tp_status any_out_dtype(const tp_tensor *out) {
  return out->dtype == TP_DTYPE_BOOL || out->dtype == TP_DTYPE_UINT8 ? TP_OK : TP_ERR_KERNEL_DTYPE;
}

/* any.all_out(Tensor self, *, Tensor(a!) out) -> Tensor(a!): args self, out, out. */
TP_KERNEL(aten, any, all_out, tp_fold_state) {
  tp_tensor *in, *out;
  TP_TRY(tp_elementwise_args(call, 1, &in, &out));
  TP_TRY(any_out_dtype(out));
  return tp_fold_prepare(state, &any_fns, in, 0, 0, false, out, 1, 0, 0, true, run);
}

/* any.out(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!): args self, dim,
 * keepdim, out, out. */
TP_KERNEL(aten, any, out, tp_fold_state) {
  tp_tensor *in, *out;
  int64_t dim;
  bool keepdim;
  TP_TRY(tp_elementwise_args(call, 3, &in, &out));
  TP_TRY(tp_arg_int(call->args, call->nargs, 1, &dim));
  TP_TRY(tp_arg_bool(call->args, call->nargs, 2, &keepdim));
  TP_TRY(any_out_dtype(out));
  return tp_fold_prepare(state, &any_fns, in, &dim, 1, keepdim, out, 3, 0, 0, true, run);
}

/* any.dims_out(Tensor self, int[]? dim=None, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!): args
 * self, dim, keepdim, out, out. */
TP_KERNEL(aten, any, dims_out, tp_fold_state) {
  tp_tensor *in, *out;
  const int64_t *dims;
  uint32_t ndims;
  bool keepdim;
  TP_TRY(tp_elementwise_args(call, 3, &in, &out));
  TP_TRY(tp_arg_optional_int_list(call->args, call->nargs, 1, &dims, &ndims));
  TP_TRY(tp_arg_bool(call->args, call->nargs, 2, &keepdim));
  TP_TRY(any_out_dtype(out));
  return tp_fold_prepare(state, &any_fns, in, dims, ndims, keepdim, out, 3, 0, 0, true, run);
}
