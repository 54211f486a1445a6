/* aten::_native_batch_norm_legit_no_training.out (inference batch norm) for float32 inputs of
 * shape (N, C, ...): out = (x - running_mean[c]) * invstd[c] * weight[c] + bias[c] with
 * invstd = 1 / sqrtf(running_var[c] + eps), weight/bias optional. The save_mean and
 * save_invstd outs are the empty (numel 0) tensors ExecuTorch emits and are not written;
 * momentum is unused.
 */
#include <math.h>

#include "util/nn.h"

typedef struct batch_norm_state {
  uint32_t outer;    /* N */
  uint32_t channels; /* C */
  uint32_t inner;    /* elements per channel of one batch entry (the product of the sizes after C) */
  float eps;
  bool has_weight, has_bias;
} batch_norm_state;

/* _native_batch_norm_legit_no_training.out(Tensor input, Tensor? weight, Tensor? bias,
 *   Tensor running_mean, Tensor running_var, float momentum, float eps, *, Tensor(a!) out0,
 *   Tensor(b!) out1, Tensor(c!) out2) -> (Tensor(a!), Tensor(b!), Tensor(c!)): the returns are
 *   one tensor list or three tensors (tp_nn_check_multi_out_nargs). */
enum { IN, WEIGHT, BIAS, RUNNING_MEAN, RUNNING_VAR, MOMENTUM, EPS, OUT, SAVE_MEAN, SAVE_INVSTD };

static bool is_channel_vector(const tp_tensor *t, int32_t channels) {
  return t->dim == 1 && t->sizes[0] == channels;
}

static tp_status batch_norm_run(const tp_kernel_call *call) {
  const batch_norm_state *st = call->state;
  const uint32_t outer = st->outer, C = st->channels, inner = st->inner;
  const float feps = st->eps;
  const float *mean_data = (const float *)call->args[RUNNING_MEAN]->as.tensor->data;
  const float *var_data = (const float *)call->args[RUNNING_VAR]->as.tensor->data;
  const float *weight_data = st->has_weight ? (const float *)call->args[WEIGHT]->as.tensor->data : NULL;
  const float *bias_data = st->has_bias ? (const float *)call->args[BIAS]->as.tensor->data : NULL;
  const float *x = (const float *)call->args[IN]->as.tensor->data;
  float *y = (float *)call->args[OUT]->as.tensor->data;
  for (uint32_t i = 0; i < outer; i++) {
    for (uint32_t c = 0; c < C; c++) {
      const float m = mean_data[c];
      const float invstd = 1.0f / sqrtf(var_data[c] + feps);
      const float w = weight_data != NULL ? weight_data[c] : 1.0f;
      const float b = bias_data != NULL ? bias_data[c] : 0.0f;
      for (uint32_t j = inner; j != 0; j--) {
        *y++ = (*x++ - m) * invstd * w + b;
      }
    }
  }
  return TP_OK;
}

TP_KERNEL(aten, _native_batch_norm_legit_no_training, out, batch_norm_state) {
  tp_tensor *in, *weight, *bias, *rmean, *rvar, *out, *save_mean, *save_invstd;
  double momentum, eps;
  TP_TRY(tp_nn_check_multi_out_nargs(args, nargs, OUT, 3));
  TP_TRY(tp_arg_tensor(args, nargs, IN, &in));
  TP_TRY(tp_arg_optional_tensor(args, nargs, WEIGHT, &weight));
  TP_TRY(tp_arg_optional_tensor(args, nargs, BIAS, &bias));
  TP_TRY(tp_arg_tensor(args, nargs, RUNNING_MEAN, &rmean));
  TP_TRY(tp_arg_tensor(args, nargs, RUNNING_VAR, &rvar));
  TP_TRY(tp_arg_scalar(args, nargs, MOMENTUM, &momentum));
  TP_TRY(tp_arg_scalar(args, nargs, EPS, &eps));
  TP_TRY(tp_arg_tensor(args, nargs, OUT, &out));
  TP_TRY(tp_arg_tensor(args, nargs, SAVE_MEAN, &save_mean));
  TP_TRY(tp_arg_tensor(args, nargs, SAVE_INVSTD, &save_invstd));
  if (!tp_nn_is_f32(in) || !tp_nn_is_f32(rmean) || !tp_nn_is_f32(rvar) || !tp_nn_is_f32(out) ||
      !tp_nn_is_f32(save_mean) || !tp_nn_is_f32(save_invstd) || (weight != NULL && !tp_nn_is_f32(weight)) ||
      (bias != NULL && !tp_nn_is_f32(bias))) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(in->dim >= 2);
  const int32_t C = in->sizes[1];
  TP_CHECK_ARGS(is_channel_vector(rmean, C) && is_channel_vector(rvar, C));
  TP_CHECK_ARGS(weight == NULL || is_channel_vector(weight, C));
  TP_CHECK_ARGS(bias == NULL || is_channel_vector(bias, C));
  TP_CHECK_ARGS(tp_same_shape(out, in) && save_mean->numel == 0 && save_invstd->numel == 0);
  if (in->numel == 0) {
    *run = tp_nn_run_nothing;
    return TP_OK;
  }
  state->outer = (uint32_t)in->sizes[0];
  state->channels = (uint32_t)C;
  state->inner = in->numel / (state->outer * (uint32_t)C);
  state->eps = (float)eps;
  state->has_weight = weight != NULL;
  state->has_bias = bias != NULL;
  *run = batch_norm_run;
  return TP_OK;
}
