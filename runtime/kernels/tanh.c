/* aten::tanh.out: out = tanh(self) elementwise, float32 (tanhf). */
#include <math.h>

#include "kernel_util.h"

/* tanh.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!) */
TP_KERNEL_LEGACY(aten, tanh, out) {
  tp_float_map m;
  TP_TRY(tp_float_map_args(args, nargs, 1, &m));
  for (uint32_t i = 0; i < m.n; i++) {
    m.y[i] = tanhf(m.x[i]);
  }
  return TP_OK;
}
