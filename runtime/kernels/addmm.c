/* aten::addmm.out: out = beta * self + alpha * (mat1 @ mat2), float32; self broadcasts to
 * [m, p] ([p], [1, p], [m, 1], [m, p] or a scalar). Like ExecuTorch's portable kernel each
 * element is a float dot product over k in increasing order, then sum * alpha + self * beta
 * (with alpha == beta == 1 that is exactly sum + self). beta == 0 still multiplies self, so
 * NaN/inf in self propagate as in the portable kernel (ATen would ignore self).
 */
#include "nn_util.h"

/* A Scalar argument converted straight to float, as the portable kernel's convert<float>()
 * (int64 -> float rounds once; going through tp_arg_scalar's double would round twice and
 * pull soft-double helpers into small firmware). */
static tp_status scalar_f32(const tp_value *v, float *out) {
  switch (v->tag) {
    case TP_TAG_INT:
      *out = tp_nn_i64_to_f32(v->as.i);
      return TP_OK;
    case TP_TAG_DOUBLE:
      *out = (float)v->as.d;
      return TP_OK;
    case TP_TAG_BOOL:
      *out = v->as.b ? 1.0f : 0.0f;
      return TP_OK;
    default:
      return TP_ERR_KERNEL_ARGS;
  }
}

TP_KERNEL_LEGACY(aten, addmm, out) {
  tp_tensor *self, *mat1, *mat2, *out;
  float beta, alpha;
  TP_CHECK_ARGS(nargs == 7);
  TP_TRY(tp_arg_tensor(args, nargs, 0, &self));
  TP_TRY(tp_arg_tensor(args, nargs, 1, &mat1));
  TP_TRY(tp_arg_tensor(args, nargs, 2, &mat2));
  TP_TRY(scalar_f32(args[3], &beta));
  TP_TRY(scalar_f32(args[4], &alpha));
  TP_TRY(tp_arg_tensor(args, nargs, 5, &out));
  if (self->dtype != TP_DTYPE_FLOAT32 || mat1->dtype != TP_DTYPE_FLOAT32 || mat2->dtype != TP_DTYPE_FLOAT32 ||
      out->dtype != TP_DTYPE_FLOAT32) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(mat1->dim == 2 && mat2->dim == 2 && out->dim == 2 && self->dim <= 2);
  const uint32_t m = (uint32_t)mat1->sizes[0];
  const uint32_t n = (uint32_t)mat1->sizes[1];
  const uint32_t p = (uint32_t)mat2->sizes[1];
  TP_CHECK_ARGS((uint32_t)mat2->sizes[0] == n && (uint32_t)out->sizes[0] == m && (uint32_t)out->sizes[1] == p);
  /* self's rows and columns; a size of 1 broadcasts (step 0). */
  uint32_t rows = self->dim == 2 ? (uint32_t)self->sizes[0] : 1;
  uint32_t cols = self->dim >= 1 ? (uint32_t)self->sizes[self->dim - 1] : 1;
  TP_CHECK_ARGS((rows == 1 || rows == m) && (cols == 1 || cols == p));
  const uint32_t row_step = rows == 1 ? 0 : cols;
  const uint32_t col_step = cols == 1 ? 0 : 1;

  /* The products first (float sums over k), then the scale and the bias in place: what the
   * portable kernel does when self broadcasts, and the same rounding as its fused loop. */
  float *z = (float *)out->data;
  tp_nn_matmul_f32(z, (const float *)mat1->data, (const float *)mat2->data, m, n, p);
  const float *srow = (const float *)self->data;
  for (uint32_t i = 0; i < m; i++, srow += row_step) {
    const float *s = srow;
    for (uint32_t j = 0; j < p; j++, s += col_step) {
      *z = *z * alpha + *s * beta;
      z++;
    }
  }
  return TP_OK;
}
