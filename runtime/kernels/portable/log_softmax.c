/* aten::_log_softmax.out: log-softmax along dim, float32, as ExecuTorch's portable kernel: per
 * slice m = max, s = log(sum(exp(x - m))), out = x - m - s (float arithmetic). half_to_float
 * must be false. prepare (tp_softmax_prepare) checks and plans the slices; run computes them. */
#include <math.h>

#include "portable/engines/softmax.h"

static void log_softmax_slice(const float *x, float *out, uint32_t size, uint32_t inner, float max) {
  float sum = 0.0f;
  for (uint32_t k = 0; k < size; k++) {
    sum += expf(x[(size_t)k * inner] - max);
  }
  const float log_sum = logf(sum);
  for (uint32_t k = 0; k < size; k++) {
    out[(size_t)k * inner] = x[(size_t)k * inner] - max - log_sum;
  }
}

/* _log_softmax.out(Tensor self, int dim, bool half_to_float, *, Tensor(a!) out) -> Tensor(a!) */
static tp_status log_softmax_f32(const tp_kernel_call *call) { return tp_softmax_each_slice(call, log_softmax_slice); }

TP_KERNEL(aten, _log_softmax, out, tp_softmax_state) { return tp_softmax_prepare(call, state, run, log_softmax_f32); }
