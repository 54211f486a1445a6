/* aten::var: the variance over dims (None: all), sum((x - mean)^2) / (n - correction), in two
 * passes in double (the mean, then the squared deviations); var.out takes `unbiased`
 * (correction 1 or 0), var.correction_out a correction (None: 1). float32 self and out. n <=
 * correction gives inf or NaN, as in ATen. */
#include "portable/engines/fold.h"

static void var_start(tp_fold *f) { f->acc = 0.0; }

static void var_step(tp_fold *f, double v, int64_t iv, uint32_t r) {
  (void)iv;
  (void)r;
  f->acc += v;
}

static void var_between(tp_fold *f) {
  f->mean = f->acc / (double)f->count;
  f->acc = 0.0;
}

static void var_step2(tp_fold *f, double v) {
  const double d = v - f->mean;
  f->acc += d * d;
}

static double var_result(const tp_fold *f) { return f->acc / ((double)f->count - f->param); }

static const tp_fold_fns var_fns = {var_start, var_step, var_between, var_step2, var_result, false};

/* The shared part: self args[0], dim list args[1], keepdim at keepdim_slot, out at out_slot. */
static tp_status var_prepare(const tp_kernel_call *call, tp_fold_state *state, tp_kernel_run_fn *run,
                             uint32_t keepdim_slot, uint32_t out_slot, double correction) {
  tp_tensor *in, *out;
  const int64_t *dims;
  uint32_t ndims;
  bool keepdim;
  TP_TRY(tp_elementwise_args(call, out_slot, &in, &out));
  TP_TRY(tp_arg_optional_int_list(call->args, call->nargs, 1, &dims, &ndims));
  TP_TRY(tp_arg_bool(call->args, call->nargs, keepdim_slot, &keepdim));
  if (in->dtype != TP_DTYPE_FLOAT32 || out->dtype != TP_DTYPE_FLOAT32) {
    return TP_ERR_KERNEL_DTYPE;
  }
  state->param = correction;
  return tp_fold_prepare(state, &var_fns, in, dims, ndims, keepdim, out, out_slot, 0, 0, true, run);
}

/* var.out(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False, *, Tensor(a!) out): args self,
 * dim, unbiased, keepdim, out, out. */
TP_KERNEL(aten, var, out, tp_fold_state) {
  bool unbiased;
  TP_TRY(tp_arg_bool(call->args, call->nargs, 2, &unbiased));
  return var_prepare(call, state, run, 3, 4, unbiased ? 1.0 : 0.0);
}

/* var.correction_out(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False,
 * Tensor(a!) out): args self, dim, correction, keepdim, out, out. */
TP_KERNEL(aten, var, correction_out, tp_fold_state) {
  double correction;
  bool has;
  TP_TRY(tp_arg_optional_scalar(call->args, call->nargs, 2, &correction, &has));
  return var_prepare(call, state, run, 3, 4, has ? correction : 1.0);
}
