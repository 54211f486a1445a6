/* aten::_softmax.out: softmax along dim, float32, as ExecuTorch's portable kernel: per slice
 * m = max, e = exp(x - m), out = e / sum(e) (float arithmetic). half_to_float must be false.
 * prepare (tp_softmax_prepare) checks and plans the slices; run computes them. */
#include <math.h>

#include "portable/engines/softmax.h"

static void softmax_slice(const float *x, float *out, uint32_t size, uint32_t inner, float max) {
  float sum = 0.0f;
  for (uint32_t k = 0; k < size; k++) {
    const float e = expf(x[(size_t)k * inner] - max);
    out[(size_t)k * inner] = e;
    sum += e;
  }
  for (uint32_t k = 0; k < size; k++) {
    out[(size_t)k * inner] = out[(size_t)k * inner] / sum;
  }
}

/* _softmax.out(Tensor self, int dim, bool half_to_float, *, Tensor(a!) out) -> Tensor(a!) */
static tp_status softmax_f32(const tp_kernel_call *call) { return tp_softmax_each_slice(call, softmax_slice); }

TP_KERNEL(aten, _softmax, out, tp_softmax_state) { return tp_softmax_prepare(call, state, run, softmax_f32); }
