/* aten::mm.out: out[m, p] = self[m, n] @ mat2[n, p], float32 (float sums over k in increasing
 * order, as ExecuTorch's portable kernel).
 */
#include "nn_util.h"

TP_KERNEL_LEGACY(aten, mm, out) {
  tp_tensor *self, *mat2, *out;
  TP_TRY(tp_nn_matmul_args(args, nargs, &self, &mat2, &out));
  TP_CHECK_ARGS(self->dim == 2 && mat2->dim == 2 && self->sizes[1] == mat2->sizes[0]);
  const int32_t expect[2] = {self->sizes[0], mat2->sizes[1]};
  TP_CHECK_ARGS(tp_nn_has_shape(out, 2, expect));
  tp_nn_matmul_f32((float *)out->data, (const float *)self->data, (const float *)mat2->data, (uint32_t)expect[0],
                   (uint32_t)self->sizes[1], (uint32_t)expect[1]);
  return TP_OK;
}
