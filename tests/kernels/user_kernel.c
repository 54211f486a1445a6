/* A kernel of a user's own, for an operator the portable kernels do not have:
 * tinypte_test::twice.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!), out = 2 * self
 * (float32). kernel_library's `srcs` compiles and registers it (see BUILD.bazel); it uses
 * the portable kernels' helpers (kernel_util.h) like any kernel. */
#include "kernel_util.h"

TP_KERNEL_LEGACY(tinypte_test, twice, out) {
  tp_float_map m;
  TP_TRY(tp_float_map_args(args, nargs, 1, &m));
  for (uint32_t i = 0; i < m.n; i++) {
    m.y[i] = 2.0f * m.x[i];
  }
  return TP_OK;
}
