/* aten::native_layer_norm.out for float32: normalizes over the trailing normalized_shape
 * dims, with optional elementwise weight and bias of that shape; also writes mean and rstd,
 * shaped as the input with the normalized dims set to 1.
 *
 * As ExecuTorch's portable kernel: float sums of x and x*x (index order), mean = sum / n,
 * variance = sumsq / n - mean^2, std = sqrtf(variance + eps); out = (x - mean) * rstd * w + b
 * with rstd = 1 / std (the portable kernel divides by std per element; multiplying by the
 * reciprocal differs by at most an ulp and keeps division out of the loop).
 */
#include <math.h>

#include "util/nn.h"

typedef struct layer_norm_state {
  uint32_t rows; /* normalized groups: one mean and rstd each */
  uint32_t cols; /* elements per group (the normalized_shape's) */
  float eps;
  bool has_weight, has_bias;
} layer_norm_state;

/* native_layer_norm.out(Tensor input, SymInt[] normalized_shape, Tensor? weight, Tensor? bias,
 *   float eps, *, Tensor(a!) out0, Tensor(b!) out1, Tensor(c!) out2) -> (Tensor(a!), Tensor(b!), Tensor(c!)):
 *   the returns are one tensor list or three tensors (tp_nn_check_multi_out_nargs). */
enum { IN, NORMALIZED_SHAPE, WEIGHT, BIAS, EPS, OUT, MEAN, RSTD };

static const float one = 1.0f;
static const float zero = 0.0f;

static tp_status layer_norm_run(const tp_kernel_call *call) {
  const layer_norm_state *st = call->state;
  const uint32_t rows = st->rows, cols = st->cols;
  const float feps = st->eps;
  const float fcols = (float)cols;
  const uint32_t w_step = st->has_weight ? 1 : 0;
  const uint32_t b_step = st->has_bias ? 1 : 0;
  const float *weight_data = st->has_weight ? (const float *)call->args[WEIGHT]->as.tensor->data : &one;
  const float *bias_data = st->has_bias ? (const float *)call->args[BIAS]->as.tensor->data : &zero;
  const float *x = (const float *)call->args[IN]->as.tensor->data;
  float *y = (float *)call->args[OUT]->as.tensor->data;
  float *mean_data = (float *)call->args[MEAN]->as.tensor->data;
  float *rstd_data = (float *)call->args[RSTD]->as.tensor->data;
  for (uint32_t r = 0; r < rows; r++) {
    if (cols == 0) {
      mean_data[r] = 0.0f;
      rstd_data[r] = NAN;
      continue;
    }
    float sum = 0.0f, sumsq = 0.0f;
    for (uint32_t j = 0; j < cols; j++) {
      sum += x[j];
      sumsq += x[j] * x[j];
    }
    const float m = sum / fcols;
    const float variance = sumsq / fcols - m * m;
    const float rs = 1.0f / sqrtf(variance + feps);
    const float *wp = weight_data;
    const float *bp = bias_data;
    for (uint32_t j = cols; j != 0; j--) {
      *y++ = (*x++ - m) * rs * *wp + *bp;
      wp += w_step;
      bp += b_step;
    }
    mean_data[r] = m;
    rstd_data[r] = rs;
  }
  return TP_OK;
}

TP_KERNEL(aten, native_layer_norm, out, layer_norm_state) {
  tp_tensor *in, *weight, *bias, *out, *mean, *rstd;
  const int64_t *shape;
  uint32_t len;
  double eps;
  TP_TRY(tp_nn_check_multi_out_nargs(args, nargs, OUT, 3));
  TP_TRY(tp_arg_tensor(args, nargs, IN, &in));
  TP_TRY(tp_arg_int_list(args, nargs, NORMALIZED_SHAPE, &shape, &len));
  TP_TRY(tp_arg_optional_tensor(args, nargs, WEIGHT, &weight));
  TP_TRY(tp_arg_optional_tensor(args, nargs, BIAS, &bias));
  TP_TRY(tp_arg_scalar(args, nargs, EPS, &eps));
  TP_TRY(tp_arg_tensor(args, nargs, OUT, &out));
  TP_TRY(tp_arg_tensor(args, nargs, MEAN, &mean));
  TP_TRY(tp_arg_tensor(args, nargs, RSTD, &rstd));
  if (!tp_nn_is_f32(in) || !tp_nn_is_f32(out) || !tp_nn_is_f32(mean) || !tp_nn_is_f32(rstd) ||
      (weight != NULL && !tp_nn_is_f32(weight)) || (bias != NULL && !tp_nn_is_f32(bias))) {
    return TP_ERR_KERNEL_DTYPE;
  }
  const uint32_t dim = in->dim;
  TP_CHECK_ARGS(len >= 1 && len <= dim);
  const uint32_t lead_dims = dim - len;
  int32_t stats_shape[TP_MAX_DIM];
  uint32_t rows = 1, cols = 1;
  for (uint32_t i = 0; i < dim; i++) {
    if (i < lead_dims) {
      stats_shape[i] = in->sizes[i];
      rows *= (uint32_t)in->sizes[i];
    } else {
      TP_CHECK_ARGS(shape[i - lead_dims] == in->sizes[i]);
      stats_shape[i] = 1;
      cols *= (uint32_t)in->sizes[i];
    }
  }
  if (weight != NULL) {
    TP_CHECK_ARGS(tp_nn_has_shape(weight, len, in->sizes + lead_dims));
  }
  if (bias != NULL) {
    TP_CHECK_ARGS(tp_nn_has_shape(bias, len, in->sizes + lead_dims));
  }
  TP_CHECK_ARGS(tp_same_shape(out, in) && tp_nn_has_shape(mean, dim, stats_shape) &&
                tp_nn_has_shape(rstd, dim, stats_shape));
  state->rows = rows;
  state->cols = cols;
  state->eps = (float)eps;
  state->has_weight = weight != NULL;
  state->has_bias = bias != NULL;
  *run = layer_norm_run;
  return TP_OK;
}
