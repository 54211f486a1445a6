/* aten::avg_pool2d.out for float32 (C, H, W) or (N, C, H, W) inputs: the float sum of each
 * window's elements inside the input (row by row, as ExecuTorch's portable kernel) divided by
 * divisor_override if given, else by the window size clipped to the padded input
 * (count_include_pad) or to the input (not count_include_pad).
 */
#include "nn_util.h"

/* avg_pool2d.out(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0,
 *   bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None, *,
 *   Tensor(a!) out) -> Tensor(a!) */
enum { IN, KERNEL, STRIDE, PADDING, CEIL_MODE, COUNT_INCLUDE_PAD, DIVISOR_OVERRIDE, OUT, NARGS = OUT + 2 };

static int32_t min_i32(int32_t a, int32_t b) { return a < b ? a : b; }
static int32_t max_i32(int32_t a, int32_t b) { return a > b ? a : b; }

TP_KERNEL_LEGACY(aten, avg_pool2d, out) {
  tp_tensor *in, *out;
  tp_nn_window2d w;
  bool ceil_mode, count_include_pad, has_divisor;
  int64_t divisor;
  TP_CHECK_ARGS(nargs == NARGS);
  TP_TRY(tp_arg_tensor(args, nargs, IN, &in));
  TP_TRY(tp_nn_pool_window(args, nargs, KERNEL, STRIDE, PADDING, UINT32_MAX, &w));
  TP_TRY(tp_arg_bool(args, nargs, CEIL_MODE, &ceil_mode));
  TP_TRY(tp_arg_bool(args, nargs, COUNT_INCLUDE_PAD, &count_include_pad));
  TP_TRY(tp_arg_optional_int(args, nargs, DIVISOR_OVERRIDE, &divisor, &has_divisor));
  TP_TRY(tp_arg_tensor(args, nargs, OUT, &out));
  if (!tp_nn_is_f32(in) || !tp_nn_is_f32(out)) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(!has_divisor || divisor != 0);
  TP_CHECK_ARGS(in->dim == 3 || in->dim == 4);
  const uint32_t dim = in->dim;
  const int32_t H = in->sizes[dim - 2], W = in->sizes[dim - 1];
  TP_CHECK_ARGS(in->sizes[dim - 3] > 0 && H > 0 && W > 0);
  const int32_t OH = tp_nn_out_size(H, w.k[0], w.s[0], w.p[0], 1, ceil_mode);
  const int32_t OW = tp_nn_out_size(W, w.k[1], w.s[1], w.p[1], 1, ceil_mode);
  TP_CHECK_ARGS(OH > 0 && OW > 0);
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

  const float fixed_divisor = tp_nn_i64_to_f32(divisor);
  const uint32_t planes = in->numel / ((uint32_t)H * (uint32_t)W);
  const float *plane = (const float *)in->data;
  float *o = (float *)out->data;
  for (uint32_t c = 0; c < planes; c++, plane += (uint32_t)H * (uint32_t)W) {
    for (int32_t oy = 0; oy < OH; oy++) {
      int32_t y0 = oy * w.s[0] - w.p[0];
      int32_t y1 = min_i32(y0 + w.k[0], H + w.p[0]);
      const int32_t pool_h = y1 - y0;
      y0 = max_i32(y0, 0);
      y1 = min_i32(y1, H);
      for (int32_t ox = 0; ox < OW; ox++) {
        int32_t x0 = ox * w.s[1] - w.p[1];
        int32_t x1 = min_i32(x0 + w.k[1], W + w.p[1]);
        const int32_t pool_w = x1 - x0;
        x0 = max_i32(x0, 0);
        x1 = min_i32(x1, W);
        float value = 0.0f;
        if (y1 > y0 && x1 > x0) {
          float sum = 0.0f;
          const float *row = plane + y0 * W + x0;
          for (int32_t y = y1 - y0; y > 0; y--, row += W) {
            const float *p = row;
            for (int32_t x = x1 - x0; x > 0; x--) {
              sum += *p++;
            }
          }
          const float count = has_divisor         ? fixed_divisor
                              : count_include_pad ? (float)(pool_h * pool_w)
                                                  : (float)((y1 - y0) * (x1 - x0));
          value = sum / count;
        }
        *o++ = value;
      }
    }
  }
  return TP_OK;
}
