/* aten::native_group_norm.out: group normalization of float32 input (N, C, *) in G groups of C / G
 * channels: per (n, group), mean and variance (E[x^2] - mean^2) over the group's elements, then
 * out = (x - mean) * rstd * weight[c] + bias[c] with rstd = 1 / sqrt(var + eps); also writes
 * mean and rstd, shape (N, G). The arithmetic of ExecuTorch's portable kernel: sums in float,
 * statistics and the affine map in double. */
#include <math.h>

#include "util/nn.h"

typedef struct group_norm_state {
  double eps;
  uint32_t n, c, hxw, groups;
  bool has_weight, has_bias;
} group_norm_state;

/* native_group_norm.out(Tensor input, Tensor? weight, Tensor? bias, SymInt N, SymInt C, SymInt HxW,
 * int group, float eps, *, Tensor(a!) out0, Tensor(b!) out1, Tensor(c!) out2): args input, weight,
 * bias, N, C, HxW, group, eps, out0, out1, out2, then the returned outs (tp_nn_check_multi_out_nargs). */
enum { GN_IN, GN_WEIGHT, GN_BIAS, GN_N, GN_C, GN_HXW, GN_GROUP, GN_EPS, GN_OUT, GN_MEAN, GN_RSTD };

static tp_status group_norm_run(const tp_kernel_call *call) {
  const group_norm_state *st = call->state;
  const float *in = (const float *)call->args[GN_IN]->as.tensor->data;
  const float *w = st->has_weight ? (const float *)call->args[GN_WEIGHT]->as.tensor->data : 0;
  const float *b = st->has_bias ? (const float *)call->args[GN_BIAS]->as.tensor->data : 0;
  float *out = (float *)call->args[GN_OUT]->as.tensor->data;
  float *mean_out = (float *)call->args[GN_MEAN]->as.tensor->data;
  float *rstd_out = (float *)call->args[GN_RSTD]->as.tensor->data;
  const uint32_t d = st->c / st->groups, inner = d * st->hxw;
  for (uint32_t i = 0; i < st->n * st->groups; i++) {
    const float *x = in + (size_t)i * inner;
    if (inner == 0) {
      mean_out[i] = 0.0f;
      rstd_out[i] = __builtin_nanf("");
      continue;
    }
    float sum = 0.0f, sq_sum = 0.0f;
    for (uint32_t k = 0; k < inner; k++) {
      sum += x[k];
    }
    for (uint32_t k = 0; k < inner; k++) {
      sq_sum += x[k] * x[k];
    }
    const double mean = (double)sum / (double)inner;
    const double var = (double)sq_sum / (double)inner - mean * mean;
    const double rstd = 1.0 / sqrt(var + st->eps);
    const uint32_t g = i % st->groups;
    for (uint32_t j = 0; j < d; j++) {
      const uint32_t ch = g * d + j;
      const double scale = rstd * (w == 0 ? 1.0 : (double)w[ch]);
      const double beta = -scale * mean + (b == 0 ? 0.0 : (double)b[ch]);
      const float *xc = x + (size_t)j * st->hxw;
      float *y = out + (size_t)i * inner + (size_t)j * st->hxw;
      for (uint32_t k = 0; k < st->hxw; k++) {
        y[k] = (float)(scale * (double)xc[k] + beta);
      }
    }
    mean_out[i] = (float)mean;
    rstd_out[i] = (float)rstd;
  }
  return TP_OK;
}

TP_KERNEL(aten, native_group_norm, out, group_norm_state) {
  tp_tensor *in, *weight, *bias, *out, *mean, *rstd;
  int64_t n, c, hxw, groups;
  TP_TRY(tp_nn_check_multi_out_nargs(args, nargs, GN_OUT, 3));
  TP_TRY(tp_arg_tensor(args, nargs, GN_IN, &in));
  TP_TRY(tp_arg_optional_tensor(args, nargs, GN_WEIGHT, &weight));
  TP_TRY(tp_arg_optional_tensor(args, nargs, GN_BIAS, &bias));
  TP_TRY(tp_arg_int(args, nargs, GN_N, &n));
  TP_TRY(tp_arg_int(args, nargs, GN_C, &c));
  TP_TRY(tp_arg_int(args, nargs, GN_HXW, &hxw));
  TP_TRY(tp_arg_int(args, nargs, GN_GROUP, &groups));
  TP_TRY(tp_arg_scalar(args, nargs, GN_EPS, &state->eps));
  TP_TRY(tp_arg_tensor(args, nargs, GN_OUT, &out));
  TP_TRY(tp_arg_tensor(args, nargs, GN_MEAN, &mean));
  TP_TRY(tp_arg_tensor(args, nargs, GN_RSTD, &rstd));
  if (!tp_nn_is_f32(in) || !tp_nn_is_f32(out) || !tp_nn_is_f32(mean) || !tp_nn_is_f32(rstd) ||
      (weight != 0 && !tp_nn_is_f32(weight)) || (bias != 0 && !tp_nn_is_f32(bias))) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(in->dim >= 2 && n == in->sizes[0] && c == in->sizes[1] && groups > 0 && c % groups == 0);
  TP_CHECK_ARGS(hxw >= 0 && hxw <= (int64_t)in->numel && n * c * hxw == (int64_t)in->numel && tp_same_shape(in, out));
  TP_CHECK_ARGS(mean->numel == (uint32_t)(n * groups) && rstd->numel == (uint32_t)(n * groups));
  TP_CHECK_ARGS(weight == 0 || (weight->dim == 1 && weight->sizes[0] == c));
  TP_CHECK_ARGS(bias == 0 || (bias->dim == 1 && bias->sizes[0] == c));
  state->n = (uint32_t)n;
  state->c = (uint32_t)c;
  state->hxw = (uint32_t)hxw;
  state->groups = (uint32_t)groups;
  state->has_weight = weight != 0;
  state->has_bias = bias != 0;
  *run = group_norm_run;
  return TP_OK;
}
