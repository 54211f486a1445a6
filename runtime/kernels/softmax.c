/* aten::_softmax.out: softmax along dim, float32, as ExecuTorch's portable kernel: per slice
 * m = max, e = exp(x - m), out = e / sum(e) (float arithmetic). half_to_float must be false. */
#include <math.h>

#include "softmax_util.h"

/* _softmax.out(Tensor self, int dim, bool half_to_float, *, Tensor(a!) out) -> Tensor(a!) */
TP_KERNEL(aten, _softmax, out) {
  tp_softmax_slices s;
  TP_TRY(tp_softmax_slices_init(args, nargs, &s));
  for (uint32_t a = 0; a < s.outer; a++) {
    for (uint32_t b = 0; b < s.inner; b++) {
      const float *xs = s.in + (size_t)a * s.size * s.inner + b;
      float *os = s.out + (size_t)a * s.size * s.inner + b;
      const float m = tp_softmax_slice_max(xs, s.size, s.inner);
      float sum = 0.0f;
      for (uint32_t k = 0; k < s.size; k++) {
        const float e = expf(xs[(size_t)k * s.inner] - m);
        os[(size_t)k * s.inner] = e;
        sum += e;
      }
      for (uint32_t k = 0; k < s.size; k++) {
        os[(size_t)k * s.inner] = os[(size_t)k * s.inner] / sum;
      }
    }
  }
  return TP_OK;
}
