/* aten::upsample_bilinear2d.vec_out: bilinear resize of an NCHW tensor to output_size, or by
 * scale_factors (exactly one of the two is given), with or without align_corners. The source
 * coordinate and weights as ExecuTorch's portable kernel computes them, in float: ratio r =
 * (in - 1) / (out - 1) with align_corners, else 1 / scale (scale = out / in without
 * scale_factors); src = r * dst, or max(r * (dst + 0.5) - 0.5, 0); index0 = min(floor(src),
 * in - 1), index1 = index0 + 1 unless at the edge, weight1 = clamp(src - index0, 0, 1); an axis
 * whose size does not change is copied. Any real dtype (integers: the float result truncated). */
#include <math.h>

#include "util/elem.h"
#include "kernel_util.h"
#include "util/nn.h"

typedef struct upsample_bilinear_state {
  uint32_t planes;        /* N * C */
  uint32_t in_h, in_w, out_h, out_w;
  float ratio_h, ratio_w; /* input pixels per output pixel */
  uint8_t dtype;
  bool align_corners;
} upsample_bilinear_state;

/* upsample_bilinear2d.vec_out(Tensor input, SymInt[]? output_size, bool align_corners, float[]?
 * scale_factors, *, Tensor(a!) out) -> Tensor(a!): args input, output_size, align_corners,
 * scale_factors, out, out. */
enum { UPB_INPUT, UPB_SIZE, UPB_ALIGN, UPB_SCALES, UPB_OUT, UPB_NARGS = 6 };

/* The two source indices and their weights for output index dst along one axis. */
typedef struct upsample_tap {
  uint32_t i0, i1;
  float w0, w1;
} upsample_tap;

static upsample_tap upsample_bilinear_tap(float ratio, uint32_t dst, uint32_t in_size, uint32_t out_size,
                                          bool align_corners) {
  upsample_tap t;
  if (in_size == out_size) {
    t.i0 = t.i1 = dst;
    t.w0 = 1.0f;
    t.w1 = 0.0f;
    return t;
  }
  float src = align_corners ? ratio * (float)dst : ratio * ((float)dst + 0.5f) - 0.5f;
  if (!align_corners && src < 0.0f) {
    src = 0.0f;
  }
  const float f = floorf(src);
  const uint32_t i0 = f < (float)(in_size - 1u) ? (uint32_t)f : in_size - 1u;
  float w1 = src - (float)i0;
  w1 = w1 < 0.0f ? 0.0f : w1 > 1.0f ? 1.0f : w1;
  t.i0 = i0;
  t.i1 = i0 < in_size - 1u ? i0 + 1u : i0;
  t.w1 = w1;
  t.w0 = 1.0f - w1;
  return t;
}

static tp_status upsample_bilinear_run(const tp_kernel_call *call) {
  const upsample_bilinear_state *st = call->state;
  const void *x = call->args[UPB_INPUT]->as.tensor->data;
  void *o = call->args[UPB_OUT]->as.tensor->data;
  uint32_t k = 0;
  for (uint32_t p = 0; p < st->planes; p++) {
    const uint32_t base = p * st->in_h * st->in_w;
    for (uint32_t h = 0; h < st->out_h; h++) {
      const upsample_tap th = upsample_bilinear_tap(st->ratio_h, h, st->in_h, st->out_h, st->align_corners);
      for (uint32_t w = 0; w < st->out_w; w++) {
        const upsample_tap tw = upsample_bilinear_tap(st->ratio_w, w, st->in_w, st->out_w, st->align_corners);
        const float tl = (float)tp_elem_load_f64(x, st->dtype, base + th.i0 * st->in_w + tw.i0);
        const float tr = (float)tp_elem_load_f64(x, st->dtype, base + th.i0 * st->in_w + tw.i1);
        const float bl = (float)tp_elem_load_f64(x, st->dtype, base + th.i1 * st->in_w + tw.i0);
        const float br = (float)tp_elem_load_f64(x, st->dtype, base + th.i1 * st->in_w + tw.i1);
        const float top = tl * tw.w0 + tr * tw.w1;
        const float bottom = bl * tw.w0 + br * tw.w1;
        tp_elem_store_f64(o, st->dtype, k++, (double)(top * th.w0 + bottom * th.w1));
      }
    }
  }
  return TP_OK;
}

TP_KERNEL(aten, upsample_bilinear2d, vec_out, upsample_bilinear_state) {
  tp_tensor *in, *out, *ret;
  const int64_t *size;
  uint32_t size_len;
  bool align;
  TP_CHECK_ARGS(nargs == UPB_NARGS);
  TP_TRY(tp_arg_tensor(args, nargs, UPB_INPUT, &in));
  TP_TRY(tp_arg_optional_int_list(args, nargs, UPB_SIZE, &size, &size_len));
  TP_TRY(tp_arg_bool(args, nargs, UPB_ALIGN, &align));
  TP_TRY(tp_arg_tensor(args, nargs, UPB_OUT, &out));
  TP_TRY(tp_arg_tensor(args, nargs, UPB_OUT + 1, &ret));
  const tp_value *scales = args[UPB_SCALES];
  TP_CHECK_ARGS(scales->tag == TP_TAG_DOUBLE_LIST || scales->tag == TP_TAG_NONE);
  if (in->dtype != out->dtype || !tp_dtype_is_real(in->dtype)) {
    return TP_ERR_KERNEL_DTYPE;
  }
  double scale[2];
  int32_t sizes[4];
  TP_TRY(tp_nn_resize2d_shape(in, out, size, size_len, scales, sizes, scale));
  state->planes = (uint32_t)in->sizes[0] * (uint32_t)in->sizes[1];
  state->in_h = (uint32_t)in->sizes[2];
  state->in_w = (uint32_t)in->sizes[3];
  state->out_h = (uint32_t)sizes[2];
  state->out_w = (uint32_t)sizes[3];
  state->dtype = (uint8_t)in->dtype;
  state->align_corners = align;
  for (uint32_t k = 0; k < 2; k++) {
    const double in_size = (double)in->sizes[2 + k], out_size = (double)sizes[2 + k];
    const double ratio = align ? (out_size > 1.0 ? (in_size - 1.0) / (out_size - 1.0) : 0.0) : 1.0 / scale[k];
    if (k == 0) {
      state->ratio_h = (float)ratio;
    } else {
      state->ratio_w = (float)ratio;
    }
  }
  *run = upsample_bilinear_run;
  return TP_OK;
}
