/* aten::_adaptive_avg_pool2d.out for float32 (C, H, W) or (N, C, H, W) inputs: output cell
 * (oh, ow) averages input rows [floor(oh*H/OH), ceil((oh+1)*H/OH)) and the columns likewise,
 * as a float sum (row by row) divided by the cell's element count, as ExecuTorch's portable
 * kernel.
 */
#include "nn_util.h"

/* _adaptive_avg_pool2d.out(Tensor self, SymInt[2] output_size, *, Tensor(a!) out) -> Tensor(a!) */
enum { IN, OUTPUT_SIZE, OUT, NARGS = OUT + 2 };

TP_KERNEL_LEGACY(aten, _adaptive_avg_pool2d, out) {
  tp_tensor *in, *out;
  const int64_t *size;
  uint32_t len;
  TP_CHECK_ARGS(nargs == NARGS);
  TP_TRY(tp_arg_tensor(args, nargs, IN, &in));
  TP_TRY(tp_arg_int_list(args, nargs, OUTPUT_SIZE, &size, &len));
  TP_TRY(tp_arg_tensor(args, nargs, OUT, &out));
  if (!tp_nn_is_f32(in) || !tp_nn_is_f32(out)) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(len == 2 && size[0] >= 1 && size[1] >= 1 && size[0] <= INT32_MAX / 2 && size[1] <= INT32_MAX / 2);
  TP_CHECK_ARGS(in->dim == 3 || in->dim == 4);
  const uint32_t dim = in->dim;
  const int32_t H = in->sizes[dim - 2], W = in->sizes[dim - 1];
  TP_CHECK_ARGS(in->sizes[dim - 3] > 0 && H > 0 && W > 0);
  const int32_t OH = (int32_t)size[0], OW = (int32_t)size[1];
  int32_t expect[4];
  for (uint32_t i = 0; i < dim - 2; i++) {
    expect[i] = in->sizes[i];
  }
  expect[dim - 2] = OH;
  expect[dim - 1] = OW;
  TP_CHECK_ARGS(tp_nn_has_shape(out, dim, expect));
  if (out->numel == 0) {
    return TP_OK;
  }

  const uint32_t planes = in->numel / ((uint32_t)H * (uint32_t)W);
  const float *plane = (const float *)in->data;
  float *o = (float *)out->data;
  for (uint32_t c = 0; c < planes; c++, plane += (uint32_t)H * (uint32_t)W) {
    for (int32_t oy = 0; oy < OH; oy++) {
      const int32_t y0 = (int32_t)(((int64_t)oy * H) / OH);
      const int32_t y1 = (int32_t)(((int64_t)(oy + 1) * H + OH - 1) / OH);
      for (int32_t ox = 0; ox < OW; ox++) {
        const int32_t x0 = (int32_t)(((int64_t)ox * W) / OW);
        const int32_t x1 = (int32_t)(((int64_t)(ox + 1) * W + OW - 1) / OW);
        float sum = 0.0f;
        const float *row = plane + y0 * W + x0;
        for (int32_t y = y1 - y0; y > 0; y--, row += W) {
          const float *p = row;
          for (int32_t x = x1 - x0; x > 0; x--) {
            sum += *p++;
          }
        }
        *o++ = sum / (float)((y1 - y0) * (x1 - x0));
      }
    }
  }
  return TP_OK;
}
