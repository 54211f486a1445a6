/* aten::sigmoid.out: out = 1 / (1 + exp(-self)) elementwise in float, float32 (the arithmetic of
 * ExecuTorch's portable kernel). */
#include <math.h>

#include "kernel_util.h"

/* sigmoid.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!) */
TP_KERNEL_LEGACY(aten, sigmoid, out) {
  tp_float_map m;
  TP_TRY(tp_float_map_args(args, nargs, 1, &m));
  for (uint32_t i = 0; i < m.n; i++) {
    m.y[i] = 1.0f / (1.0f + expf(-m.x[i]));
  }
  return TP_OK;
}
