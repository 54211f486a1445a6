/* aten::_native_batch_norm_legit: batch norm of float32 input (N, C, *).
 *  - .out (with running statistics): only training == false, as in ExecuTorch's portable
 *    kernel: out = (x - running_mean[c]) * invstd * weight[c] + bias[c], invstd =
 *    1 / sqrt(running_var[c] + eps); save_mean and save_invstd are not written.
 *  - .no_stats_out (batch statistics): per channel over N and the trailing dims, mean and
 *    var = E[x^2] - mean^2 summed in float (ExecuTorch's arithmetic), invstd = 1 / sqrt(var +
 *    eps); writes out and the (C)-shaped save_mean and save_invstd. */
#include <math.h>

#include "util/nn.h"

typedef struct bn_legit_state {
  double eps;
  uint32_t outer, channels, inner; /* input as (N, C, inner) */
  bool has_weight, has_bias;
} bn_legit_state;

/* _native_batch_norm_legit.out(Tensor input, Tensor? weight, Tensor? bias, Tensor(a!) running_mean,
 * Tensor(b!) running_var, bool training, float momentum, float eps, *, Tensor(c!) out, Tensor(d!)
 * save_mean, Tensor(e!) save_invstd): args in that order, then the returned outs. */
enum { BN_IN, BN_WEIGHT, BN_BIAS, BN_RMEAN, BN_RVAR, BN_TRAINING, BN_MOMENTUM, BN_EPS, BN_OUT };

/* _native_batch_norm_legit.no_stats_out(Tensor input, Tensor? weight, Tensor? bias, bool training,
 * float momentum, float eps, *, Tensor(a!) out, Tensor(b!) save_mean, Tensor(c!) save_invstd). */
enum { NS_IN, NS_WEIGHT, NS_BIAS, NS_TRAINING, NS_MOMENTUM, NS_EPS, NS_OUT, NS_MEAN, NS_INVSTD };

static const float *bn_optional(const tp_kernel_call *call, uint32_t slot, bool present) {
  return present ? (const float *)call->args[slot]->as.tensor->data : 0;
}

/* out = (x - mean[c]) * invstd(c) * weight[c] + bias[c] in float, invstd(c) being invstd[c], or
 * 1 / sqrt(var[c] + eps) when invstd is NULL. */
static void bn_apply(const bn_legit_state *st, const float *x, const float *mean, const float *var,
                     const float *invstd, const float *w, const float *b, float *y) {
  for (uint32_t i = 0; i < st->outer; i++) {
    for (uint32_t c = 0; c < st->channels; c++) {
      const float m = mean[c];
      const float s = invstd != 0 ? invstd[c] : (float)(1.0 / sqrt((double)var[c] + st->eps));
      const float wv = w != 0 ? w[c] : 1.0f, bv = b != 0 ? b[c] : 0.0f;
      for (uint32_t j = 0; j < st->inner; j++) {
        *y++ = (*x++ - m) * s * wv + bv;
      }
    }
  }
}

static tp_status bn_running_run(const tp_kernel_call *call) {
  const bn_legit_state *st = call->state;
  bn_apply(st, (const float *)call->args[BN_IN]->as.tensor->data,
           (const float *)call->args[BN_RMEAN]->as.tensor->data, (const float *)call->args[BN_RVAR]->as.tensor->data,
           0, bn_optional(call, BN_WEIGHT, st->has_weight), bn_optional(call, BN_BIAS, st->has_bias),
           (float *)call->args[BN_OUT]->as.tensor->data);
  return TP_OK;
}

static tp_status bn_batch_run(const tp_kernel_call *call) {
  const bn_legit_state *st = call->state;
  const float *x = (const float *)call->args[NS_IN]->as.tensor->data;
  float *mean = (float *)call->args[NS_MEAN]->as.tensor->data;
  float *invstd = (float *)call->args[NS_INVSTD]->as.tensor->data;
  for (uint32_t c = 0; c < st->channels; c++) {
    mean[c] = 0.0f;
    invstd[c] = 0.0f;
  }
  for (uint32_t i = 0; i < st->outer; i++) { /* per channel: sums, then sums of squares */
    for (uint32_t c = 0; c < st->channels; c++) {
      const float *p = x + ((size_t)i * st->channels + c) * st->inner;
      float sum = 0.0f, sq = 0.0f;
      for (uint32_t j = 0; j < st->inner; j++) {
        sum += p[j];
      }
      for (uint32_t j = 0; j < st->inner; j++) {
        sq += p[j] * p[j];
      }
      mean[c] += sum;
      invstd[c] += sq;
    }
  }
  const float count = (float)(st->outer * st->inner);
  for (uint32_t c = 0; c < st->channels; c++) {
    const float m = mean[c] / count;
    const float var = invstd[c] / count - m * m;
    mean[c] = m;
    invstd[c] = (float)(1.0 / sqrt((double)var + st->eps));
  }
  bn_apply(st, x, mean, 0, invstd, bn_optional(call, NS_WEIGHT, st->has_weight),
           bn_optional(call, NS_BIAS, st->has_bias), (float *)call->args[NS_OUT]->as.tensor->data);
  return TP_OK;
}

/* Check input, weight, bias and out, and fill the shape fields. */
static tp_status bn_common(bn_legit_state *st, const tp_tensor *in, const tp_tensor *weight, const tp_tensor *bias,
                           const tp_tensor *out) {
  if (!tp_nn_is_f32(in) || !tp_nn_is_f32(out) || (weight != 0 && !tp_nn_is_f32(weight)) ||
      (bias != 0 && !tp_nn_is_f32(bias))) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(in->dim >= 2 && tp_same_shape(in, out));
  const int32_t c = in->sizes[1];
  TP_CHECK_ARGS(weight == 0 || (weight->dim == 1 && weight->sizes[0] == c));
  TP_CHECK_ARGS(bias == 0 || (bias->dim == 1 && bias->sizes[0] == c));
  st->outer = (uint32_t)in->sizes[0];
  st->channels = (uint32_t)c;
  st->inner = st->outer * (uint32_t)c == 0 ? 0u : in->numel / (st->outer * (uint32_t)c);
  st->has_weight = weight != 0;
  st->has_bias = bias != 0;
  return TP_OK;
}

static bool bn_is_channels(const tp_tensor *t, uint32_t c) { return tp_nn_is_f32(t) && t->numel == c; }

TP_KERNEL(aten, _native_batch_norm_legit, out, bn_legit_state) {
  tp_tensor *in, *weight, *bias, *rmean, *rvar, *out;
  bool training;
  TP_TRY(tp_nn_check_multi_out_nargs(args, nargs, BN_OUT, 3));
  TP_TRY(tp_arg_tensor(args, nargs, BN_IN, &in));
  TP_TRY(tp_arg_optional_tensor(args, nargs, BN_WEIGHT, &weight));
  TP_TRY(tp_arg_optional_tensor(args, nargs, BN_BIAS, &bias));
  TP_TRY(tp_arg_tensor(args, nargs, BN_RMEAN, &rmean));
  TP_TRY(tp_arg_tensor(args, nargs, BN_RVAR, &rvar));
  TP_TRY(tp_arg_bool(args, nargs, BN_TRAINING, &training));
  TP_TRY(tp_arg_scalar(args, nargs, BN_EPS, &state->eps));
  TP_TRY(tp_arg_tensor(args, nargs, BN_OUT, &out));
  TP_CHECK_ARGS(!training); /* ExecuTorch's kernel refuses training here too */
  TP_TRY(bn_common(state, in, weight, bias, out));
  if (!bn_is_channels(rmean, state->channels) || !bn_is_channels(rvar, state->channels)) {
    return tp_nn_is_f32(rmean) && tp_nn_is_f32(rvar) ? TP_ERR_KERNEL_ARGS : TP_ERR_KERNEL_DTYPE;
  }
  *run = bn_running_run;
  return TP_OK;
}

TP_KERNEL(aten, _native_batch_norm_legit, no_stats_out, bn_legit_state) {
  tp_tensor *in, *weight, *bias, *out, *mean, *invstd;
  TP_TRY(tp_nn_check_multi_out_nargs(args, nargs, NS_OUT, 3));
  TP_TRY(tp_arg_tensor(args, nargs, NS_IN, &in));
  TP_TRY(tp_arg_optional_tensor(args, nargs, NS_WEIGHT, &weight));
  TP_TRY(tp_arg_optional_tensor(args, nargs, NS_BIAS, &bias));
  TP_TRY(tp_arg_scalar(args, nargs, NS_EPS, &state->eps));
  TP_TRY(tp_arg_tensor(args, nargs, NS_OUT, &out));
  TP_TRY(tp_arg_tensor(args, nargs, NS_MEAN, &mean));
  TP_TRY(tp_arg_tensor(args, nargs, NS_INVSTD, &invstd));
  TP_TRY(bn_common(state, in, weight, bias, out));
  if (!bn_is_channels(mean, state->channels) || !bn_is_channels(invstd, state->channels)) {
    return tp_nn_is_f32(mean) && tp_nn_is_f32(invstd) ? TP_ERR_KERNEL_ARGS : TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(state->outer * state->inner > 0);
  *run = bn_batch_run;
  return TP_OK;
}
