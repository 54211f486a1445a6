/* aten::bmm.out: out[b, m, p] = self[b, m, n] @ mat2[b, n, p] per batch, float32 (float sums
 * over k in increasing order, as ExecuTorch's portable kernel). No broadcasting.
 */
#include "nn_util.h"

TP_KERNEL_LEGACY(aten, bmm, out) {
  tp_tensor *self, *mat2, *out;
  TP_TRY(tp_nn_matmul_args(args, nargs, &self, &mat2, &out));
  TP_CHECK_ARGS(self->dim == 3 && mat2->dim == 3 && self->sizes[0] == mat2->sizes[0] &&
                self->sizes[2] == mat2->sizes[1]);
  const int32_t expect[3] = {self->sizes[0], self->sizes[1], mat2->sizes[2]};
  TP_CHECK_ARGS(tp_nn_has_shape(out, 3, expect));
  const uint32_t m = (uint32_t)expect[1], n = (uint32_t)self->sizes[2], p = (uint32_t)expect[2];
  const float *x = (const float *)self->data;
  const float *y = (const float *)mat2->data;
  float *z = (float *)out->data;
  for (int32_t i = 0; i < expect[0]; i++) {
    tp_nn_matmul_f32(z, x, y, m, n, p);
    x += m * n;
    y += n * p;
    z += m * p;
  }
  return TP_OK;
}
