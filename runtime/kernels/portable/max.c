/* aten::max: the largest element, NaN propagating (the first NaN wins), as ExecuTorch's portable
 * kernel has it.
 *  - max.dim_max: along one dim, the values (self's dtype) and the index of the first maximum
 *    (int64);
 *  - max.unary_out: over all elements (an empty self is an error).
 * Any real dtype or bool; integers exact over their full range. */
#include "portable/engines/fold.h"

static void max_start(tp_fold *f) { (void)f; }

static void max_step(tp_fold *f, double v, int64_t iv, uint32_t r) {
  if (r == 0 || (f->acc == f->acc && (v != v || v > f->acc))) {
    f->acc = v;
    f->iacc = iv;
    f->index = r;
  }
}

static double max_result(const tp_fold *f) { return f->acc; }

static const tp_fold_fns max_float = {max_start, max_step, 0, 0, max_result, false};
static const tp_fold_fns max_int = {max_start, max_step, 0, 0, max_result, true};

/* max.dim_max(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) max, Tensor(b!) max_values) ->
 * (Tensor(a!) values, Tensor(b!) indices): args self, dim, keepdim, max, max_values, and a list of the two. */
enum { MAX_DIM_SELF, MAX_DIM_DIM, MAX_DIM_KEEPDIM, MAX_DIM_VALUES, MAX_DIM_INDICES, MAX_DIM_NARGS = 6 };

TP_KERNEL(aten, max, dim_max, tp_fold_state) {
  tp_tensor *in, *values, *indices;
  int64_t dim;
  bool keepdim;
  TP_CHECK_ARGS(call->nargs == MAX_DIM_NARGS);
  TP_TRY(tp_arg_tensor(call->args, call->nargs, MAX_DIM_SELF, &in));
  TP_TRY(tp_arg_int(call->args, call->nargs, MAX_DIM_DIM, &dim));
  TP_TRY(tp_arg_bool(call->args, call->nargs, MAX_DIM_KEEPDIM, &keepdim));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, MAX_DIM_VALUES, &values));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, MAX_DIM_INDICES, &indices));
  if (in->dtype != values->dtype) {
    return TP_ERR_KERNEL_DTYPE;
  }
  const tp_fold_fns *fns = in->dtype == TP_DTYPE_FLOAT32 ? &max_float : &max_int;
  return tp_fold_prepare(state, fns, in, &dim, 1, keepdim, values, MAX_DIM_VALUES, indices, MAX_DIM_INDICES, false,
                         run);
}

/* max.unary_out(Tensor self, *, Tensor(a!) out) -> Tensor(a!): args self, out, out. */
TP_KERNEL(aten, max, unary_out, tp_fold_state) {
  tp_tensor *in, *out;
  TP_TRY(tp_elementwise_args(call, 1, &in, &out));
  if (in->dtype != out->dtype) {
    return TP_ERR_KERNEL_DTYPE;
  }
  const tp_fold_fns *fns = in->dtype == TP_DTYPE_FLOAT32 ? &max_float : &max_int;
  return tp_fold_prepare(state, fns, in, 0, 0, false, out, 1, 0, 0, false, run);
}
