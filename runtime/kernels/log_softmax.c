/* aten::_log_softmax.out: log-softmax along dim, float32, as ExecuTorch's portable kernel: per
 * slice m = max, s = log(sum(exp(x - m))), out = x - m - s (float arithmetic). half_to_float
 * must be false. */
#include <math.h>

#include "kernel_util.h"

/* _log_softmax.out(Tensor self, int dim, bool half_to_float, *, Tensor(a!) out) -> Tensor(a!) */
TP_KERNEL(aten, _log_softmax, out) {
  TP_CHECK_ARGS(nargs == 5);
  tp_tensor *in, *out, *ret;
  int64_t dim_arg;
  bool half_to_float;
  TP_TRY(tp_arg_tensor(args, nargs, 0, &in));
  TP_TRY(tp_arg_int(args, nargs, 1, &dim_arg));
  TP_TRY(tp_arg_bool(args, nargs, 2, &half_to_float));
  TP_TRY(tp_arg_tensor(args, nargs, 3, &out));
  TP_TRY(tp_arg_tensor(args, nargs, 4, &ret));
  TP_CHECK_ARGS(!half_to_float);
  if (in->dtype != TP_DTYPE_FLOAT32 || out->dtype != TP_DTYPE_FLOAT32) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(tp_same_shape(in, out));
  uint32_t dim;
  TP_TRY(tp_normalize_dim(dim_arg, in->dim, &dim));
  const uint32_t size = (uint32_t)tp_size(in, dim);
  if (in->numel == 0 || size == 0) {
    return TP_OK;
  }
  uint32_t inner = 1;
  for (uint32_t d = dim + 1; d < in->dim; d++) {
    inner *= (uint32_t)in->sizes[d];
  }
  const uint32_t outer = in->numel / (size * inner);
  const float *x = (const float *)in->data;
  float *o = (float *)out->data;
  for (uint32_t a = 0; a < outer; a++) {
    for (uint32_t b = 0; b < inner; b++) {
      const float *xs = x + (size_t)a * size * inner + b;
      float *os = o + (size_t)a * size * inner + b;
      float m = xs[0];
      for (uint32_t k = 1; k < size; k++) {
        const float v = xs[(size_t)k * inner];
        m = v < m ? m : v; /* std::max(v, m) */
      }
      float sum = 0.0f;
      for (uint32_t k = 0; k < size; k++) {
        sum += expf(xs[(size_t)k * inner] - m);
      }
      const float log_sum = logf(sum);
      for (uint32_t k = 0; k < size; k++) {
        os[(size_t)k * inner] = xs[(size_t)k * inner] - m - log_sum;
      }
    }
  }
  return TP_OK;
}
