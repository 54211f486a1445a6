/* aten::amax.out: the largest element over the listed dims (all when empty), out of self's dtype;
 * a NaN anywhere gives NaN, as in ExecuTorch's portable kernel. Any real dtype or bool; integers
 * exact over their full range. An empty reduction is an error. */
#include "portable/engines/fold.h"

/* amax.out(Tensor self, int[1] dim=[], bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!): args
 * self, dim, keepdim, out, out. */
enum { AMAX_SELF, AMAX_DIM, AMAX_KEEPDIM, AMAX_OUT };

static void amax_start(tp_fold *f) { (void)f; }

static void amax_step(tp_fold *f, double v, int64_t iv, uint32_t r) {
  if (r == 0 || v != v || (f->acc == f->acc && v > f->acc)) {
    f->acc = v;
  }
  if (r == 0 || iv > f->iacc) {
    f->iacc = iv;
  }
}

static double amax_result(const tp_fold *f) { return f->acc; }

static const tp_fold_fns amax_float = {amax_start, amax_step, 0, 0, amax_result, false};
static const tp_fold_fns amax_int = {amax_start, amax_step, 0, 0, amax_result, true};

TP_KERNEL(aten, amax, out, tp_fold_state) {
  tp_tensor *in, *out;
  const int64_t *dims;
  uint32_t ndims;
  bool keepdim;
  TP_TRY(tp_elementwise_args(call, AMAX_OUT, &in, &out));
  TP_TRY(tp_arg_int_list(call->args, call->nargs, AMAX_DIM, &dims, &ndims));
  TP_TRY(tp_arg_bool(call->args, call->nargs, AMAX_KEEPDIM, &keepdim));
  if (in->dtype != out->dtype) {
    return TP_ERR_KERNEL_DTYPE;
  }
  const tp_fold_fns *fns = in->dtype == TP_DTYPE_FLOAT32 ? &amax_float : &amax_int;
  return tp_fold_prepare(state, fns, in, dims, ndims, keepdim, out, AMAX_OUT, 0, 0, false, run);
}
