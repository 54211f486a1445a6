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

#include "nn_util.h"

/* native_layer_norm.out(Tensor input, SymInt[] normalized_shape, Tensor? weight, Tensor? bias,
 *   float eps, *, Tensor(a!) out0, Tensor(b!) out1, Tensor(c!) out2) -> (Tensor(a!), Tensor(b!), Tensor(c!)) */
enum { IN, NORMALIZED_SHAPE, WEIGHT, BIAS, EPS, OUT, MEAN, RSTD };

static const float one = 1.0f;
static const float zero = 0.0f;

TP_KERNEL_LEGACY(aten, native_layer_norm, out) {
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

  const float feps = (float)eps;
  const float fcols = (float)cols;
  const uint32_t w_step = weight != NULL ? 1 : 0;
  const uint32_t b_step = bias != NULL ? 1 : 0;
  const float *x = (const float *)in->data;
  float *y = (float *)out->data;
  float *mean_data = (float *)mean->data;
  float *rstd_data = (float *)rstd->data;
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
    const float *wp = weight != NULL ? (const float *)weight->data : &one;
    const float *bp = bias != NULL ? (const float *)bias->data : &zero;
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
