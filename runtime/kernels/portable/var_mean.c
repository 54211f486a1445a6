/* aten::var_mean.correction_out: the variance (with a correction, None: 1) and the mean over dims
 * (None: all), float32, two passes in double (the mean, then the squared deviations): the var
 * out and the mean out. */
#include "kernel_util.h"

typedef struct var_mean_state {
  tp_reduce_loop loop;
  double correction;
} var_mean_state;

/* var_mean.correction_out(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False,
 * Tensor(a!) out0, Tensor(b!) out1): args self, dim, correction, keepdim, out0 (var), out1 (mean), and
 * a list of the two. */
enum { VM_SELF, VM_DIM, VM_CORRECTION, VM_KEEPDIM, VM_VAR, VM_MEAN, VM_NARGS = 7 };

/* Sum of x (second pass: of (x - mean)^2) over the current output's elements. */
static double var_mean_pass(const tp_reduce_loop *l, const float *x, tp_reduce_pos *pos, bool squares, double mean) {
  double acc = 0.0;
  for (uint32_t row = 0; row < l->red_rows; row++) {
    const float *p = x + pos->koff + pos->roff;
    for (uint32_t j = 0; j < l->red_len; j++) {
      const double v = p[j * l->red_step];
      acc += squares ? (v - mean) * (v - mean) : v;
    }
    tp_reduce_next_row(l, pos);
  }
  return acc;
}

static tp_status var_mean_run(const tp_kernel_call *call) {
  const var_mean_state *st = call->state;
  const tp_reduce_loop *l = &st->loop;
  const float *x = (const float *)call->args[VM_SELF]->as.tensor->data;
  float *var = (float *)call->args[VM_VAR]->as.tensor->data;
  float *mean = (float *)call->args[VM_MEAN]->as.tensor->data;
  const double n = (double)l->red_numel;
  tp_reduce_pos pos;
  tp_reduce_pos_start(&pos);
  for (uint32_t i = 0; i < l->out_numel; i++) {
    const double m = var_mean_pass(l, x, &pos, false, 0.0) / n;
    var[i] = (float)(var_mean_pass(l, x, &pos, true, m) / (n - st->correction));
    mean[i] = (float)m;
    tp_reduce_next_out(l, &pos);
  }
  return TP_OK;
}

TP_KERNEL(aten, var_mean, correction_out, var_mean_state) {
  tp_tensor *in, *var, *mean;
  const int64_t *dims;
  uint32_t ndims;
  bool keepdim, has_correction;
  TP_CHECK_ARGS(nargs == VM_NARGS);
  TP_TRY(tp_arg_tensor(args, nargs, VM_SELF, &in));
  TP_TRY(tp_arg_optional_int_list(args, nargs, VM_DIM, &dims, &ndims));
  TP_TRY(tp_arg_optional_scalar(args, nargs, VM_CORRECTION, &state->correction, &has_correction));
  TP_TRY(tp_arg_bool(args, nargs, VM_KEEPDIM, &keepdim));
  TP_TRY(tp_arg_tensor(args, nargs, VM_VAR, &var));
  TP_TRY(tp_arg_tensor(args, nargs, VM_MEAN, &mean));
  if (in->dtype != TP_DTYPE_FLOAT32 || var->dtype != TP_DTYPE_FLOAT32 || mean->dtype != TP_DTYPE_FLOAT32) {
    return TP_ERR_KERNEL_DTYPE;
  }
  if (!has_correction) {
    state->correction = 1.0;
  }
  tp_reduce_plan plan;
  TP_TRY(tp_reduce_plan_init(&plan, in, dims, ndims, keepdim));
  TP_CHECK_ARGS(tp_shape_is(var, plan.out_dim, plan.out_sizes) && tp_shape_is(mean, plan.out_dim, plan.out_sizes));
  tp_reduce_loop_init(&state->loop, &plan);
  *run = var_mean_run;
  return TP_OK;
}
