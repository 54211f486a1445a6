/* aten::_native_batch_norm_legit_no_training.out (inference batch norm) for float32 inputs of
 * shape (N, C, ...): out = (x - running_mean[c]) * invstd[c] * weight[c] + bias[c] with
 * invstd = 1 / sqrtf(running_var[c] + eps), weight/bias optional. The save_mean and
 * save_invstd outs are the empty (numel 0) tensors ExecuTorch emits and are not written;
 * momentum is unused.
 */
#include <math.h>

#include "nn_util.h"

/* _native_batch_norm_legit_no_training.out(Tensor input, Tensor? weight, Tensor? bias,
 *   Tensor running_mean, Tensor running_var, float momentum, float eps, *, Tensor(a!) out0,
 *   Tensor(b!) out1, Tensor(c!) out2) -> (Tensor(a!), Tensor(b!), Tensor(c!)) */
enum { IN, WEIGHT, BIAS, RUNNING_MEAN, RUNNING_VAR, MOMENTUM, EPS, OUT, SAVE_MEAN, SAVE_INVSTD };

static bool is_channel_vector(const tp_tensor *t, int32_t channels) {
  return t->dim == 1 && t->sizes[0] == channels;
}

TP_KERNEL_LEGACY(aten, _native_batch_norm_legit_no_training, out) {
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
    return TP_OK;
  }

  const uint32_t outer = (uint32_t)in->sizes[0];
  const uint32_t inner = in->numel / (outer * (uint32_t)C);
  const float feps = (float)eps;
  const float *mean_data = (const float *)rmean->data;
  const float *var_data = (const float *)rvar->data;
  const float *weight_data = weight != NULL ? (const float *)weight->data : NULL;
  const float *bias_data = bias != NULL ? (const float *)bias->data : NULL;
  const float *x = (const float *)in->data;
  float *y = (float *)out->data;
  for (uint32_t i = 0; i < outer; i++) {
    for (int32_t c = 0; c < C; c++) {
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
