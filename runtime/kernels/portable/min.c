/* aten::min: the smallest element, NaN propagating (the first NaN wins), as ExecuTorch's portable
 * kernel has it.
 *  - min.dim_min: along one dim, the values (self's dtype) and the index of the first minimum
 *    (int64);
 *  - min.unary_out: over all elements (an empty self is an error).
 * Any real dtype or bool; integers exact over their full range. */
#include "portable/engines/fold.h"

static void min_start(tp_fold *f) { (void)f; }

static void min_step(tp_fold *f, double v, int64_t iv, uint32_t r) {
  if (r == 0 || (f->acc == f->acc && (v != v || v < f->acc))) {
    f->acc = v;
    f->iacc = iv;
    f->index = r;
  }
}

static double min_result(const tp_fold *f) { return f->acc; }

static const tp_fold_fns min_float = {min_start, min_step, 0, 0, min_result, false};
static const tp_fold_fns min_int = {min_start, min_step, 0, 0, min_result, true};

/* min.dim_min(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) min, Tensor(b!) min_indices) ->
 * (Tensor(a!) values, Tensor(b!) indices): args self, dim, keepdim, min, min_indices, and a list of the two. */
enum { MIN_DIM_SELF, MIN_DIM_DIM, MIN_DIM_KEEPDIM, MIN_DIM_VALUES, MIN_DIM_INDICES, MIN_DIM_NARGS = 6 };

TP_KERNEL(aten, min, dim_min, tp_fold_state) {
  tp_tensor *in, *values, *indices;
  int64_t dim;
  bool keepdim;
  TP_CHECK_ARGS(call->nargs == MIN_DIM_NARGS);
  TP_TRY(tp_arg_tensor(call->args, call->nargs, MIN_DIM_SELF, &in));
  TP_TRY(tp_arg_int(call->args, call->nargs, MIN_DIM_DIM, &dim));
  TP_TRY(tp_arg_bool(call->args, call->nargs, MIN_DIM_KEEPDIM, &keepdim));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, MIN_DIM_VALUES, &values));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, MIN_DIM_INDICES, &indices));
  if (in->dtype != values->dtype) {
    return TP_ERR_KERNEL_DTYPE;
  }
  const tp_fold_fns *fns = in->dtype == TP_DTYPE_FLOAT32 ? &min_float : &min_int;
  return tp_fold_prepare(state, fns, in, &dim, 1, keepdim, values, MIN_DIM_VALUES, indices, MIN_DIM_INDICES, false,
                         run);
}

/* min.unary_out(Tensor self, *, Tensor(a!) out) -> Tensor(a!): args self, out, out. */
TP_KERNEL(aten, min, unary_out, tp_fold_state) {
  tp_tensor *in, *out;
  TP_TRY(tp_elementwise_args(call, 1, &in, &out));
  if (in->dtype != out->dtype) {
    return TP_ERR_KERNEL_DTYPE;
  }
  const tp_fold_fns *fns = in->dtype == TP_DTYPE_FLOAT32 ? &min_float : &min_int;
  return tp_fold_prepare(state, fns, in, 0, 0, false, out, 1, 0, 0, false, run);
}
