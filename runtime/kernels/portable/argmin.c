/* aten::argmin.out: index (int64) of the first minimum along dim, or over the flattened tensor
 * when dim is None; NaN counts as the minimum (the first NaN wins), as ExecuTorch's portable
 * kernel has it. Any real dtype; an empty reduction is an error. */
#include "portable/engines/fold.h"

/* argmin.out(Tensor self, int? dim=None, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!): args
 * self, dim, keepdim, out, out. */
enum { ARGMIN_SELF, ARGMIN_DIM, ARGMIN_KEEPDIM, ARGMIN_OUT };

static void argmin_start(tp_fold *f) { (void)f; }

static void argmin_step(tp_fold *f, double v, int64_t iv, uint32_t r) {
  (void)iv;
  /* replace when v is NaN or smaller, unless a NaN was already chosen */
  if (r == 0 || (f->acc == f->acc && !(v >= f->acc))) {
    f->acc = v;
    f->iacc = r;
  }
}

static double argmin_result(const tp_fold *f) { return (double)f->iacc; }

static const tp_fold_fns argmin_fns = {argmin_start, argmin_step, 0, 0, argmin_result, true};

TP_KERNEL(aten, argmin, out, tp_fold_state) {
  tp_tensor *in, *out;
  int64_t dim;
  bool has_dim, keepdim;
  TP_TRY(tp_elementwise_args(call, ARGMIN_OUT, &in, &out));
  TP_TRY(tp_arg_optional_int(call->args, call->nargs, ARGMIN_DIM, &dim, &has_dim));
  TP_TRY(tp_arg_bool(call->args, call->nargs, ARGMIN_KEEPDIM, &keepdim));
  if (out->dtype != TP_DTYPE_INT64 || !tp_dtype_is_real(in->dtype)) {
    return TP_ERR_KERNEL_DTYPE;
  }
  return tp_fold_prepare(state, &argmin_fns, in, has_dim ? &dim : 0, has_dim ? 1 : 0, keepdim, out, ARGMIN_OUT, 0,
                         0, false, run);
}
