/* aten::upsample_nearest2d.vec_out: nearest-neighbour resize of an NCHW tensor to output_size, or
 * by scale_factors (exactly one of the two is given). Source index as ExecuTorch's portable kernel
 * computes it (the legacy OpenCV INTER_NEAREST rule): with s the scale factor (or out / in), the
 * float ratio r = (float)(1 / s), and src = min(floor(dst * r), in - 1), in float arithmetic, so
 * results match bit for bit. Every real dtype (elements are moved, never computed). A
 * channels-last input and out (both) are read and written in place: a pixel's C elements move
 * together, so the same loop serves both layouts. */
#include <math.h>
#include <string.h>

#include "kernel_util.h"
#include "util/nn.h"

typedef struct upsample_nearest_state {
  uint32_t planes;          /* N * C (contiguous) or N (channels-last) */
  uint32_t in_h, in_w;      /* input spatial size */
  uint32_t out_h, out_w;    /* output spatial size */
  uint32_t pixel;           /* bytes moved per output position: one element, or C of them */
  float ratio_h, ratio_w;   /* input pixels per output pixel */
} upsample_nearest_state;

/* upsample_nearest2d.vec_out(Tensor input, SymInt[]? output_size, float[]? scale_factors, *,
 * Tensor(a!) out) -> Tensor(a!): args input, output_size, scale_factors, out, out. */
enum { UP_INPUT, UP_SIZE, UP_SCALES, UP_OUT, UP_NARGS = 5 };

static uint32_t source_index(float ratio, uint32_t dst, uint32_t in_size) {
  const float f = floorf((float)dst * ratio);
  const uint32_t src = f > 0.0f ? (uint32_t)f : 0u;
  return src < in_size - 1u ? src : in_size - 1u;
}

static tp_status upsample_nearest_run(const tp_kernel_call *call) {
  const upsample_nearest_state *st = call->state;
  const uint8_t *x = (const uint8_t *)call->args[UP_INPUT]->as.tensor->data;
  uint8_t *o = (uint8_t *)call->args[UP_OUT]->as.tensor->data;
  const size_t e = st->pixel;
  for (uint32_t p = 0; p < st->planes; p++) {
    const uint8_t *plane = x + (size_t)p * st->in_h * st->in_w * e;
    for (uint32_t h = 0; h < st->out_h; h++) {
      const uint8_t *row = plane + (size_t)source_index(st->ratio_h, h, st->in_h) * st->in_w * e;
      for (uint32_t w = 0; w < st->out_w; w++) {
        memmove(o, row + (size_t)source_index(st->ratio_w, w, st->in_w) * e, e);
        o += e;
      }
    }
  }
  return TP_OK;
}

TP_KERNEL_WITH(aten, upsample_nearest2d, vec_out, upsample_nearest_state, TP_KERNEL_DIM_ORDERS) {
  tp_tensor *in, *out, *ret;
  const int64_t *size;
  uint32_t size_len;
  TP_CHECK_ARGS(nargs == UP_NARGS);
  TP_TRY(tp_arg_tensor(args, nargs, UP_INPUT, &in));
  TP_TRY(tp_arg_optional_int_list(args, nargs, UP_SIZE, &size, &size_len));
  TP_TRY(tp_arg_tensor(args, nargs, UP_OUT, &out));
  TP_TRY(tp_arg_tensor(args, nargs, UP_OUT + 1, &ret));
  const tp_value *scales = args[UP_SCALES];
  TP_CHECK_ARGS(scales->tag == TP_TAG_DOUBLE_LIST || scales->tag == TP_TAG_NONE);
  if (in->dtype != out->dtype || in->dtype == TP_DTYPE_BOOL || tp_dtype_size(in->dtype) == 0) {
    return TP_ERR_KERNEL_DTYPE;
  }
  double scale[2];
  int32_t sizes[4];
  TP_TRY(tp_nn_resize2d_shape(in, out, size, size_len, scales, sizes, scale));
  bool channels_last;
  TP_TRY(tp_in_out_channels_last(call, &channels_last));
  const uint32_t channels = (uint32_t)in->sizes[1];
  state->planes = (uint32_t)in->sizes[0] * (channels_last ? 1u : channels);
  state->in_h = (uint32_t)in->sizes[2];
  state->in_w = (uint32_t)in->sizes[3];
  state->out_h = (uint32_t)sizes[2];
  state->out_w = (uint32_t)sizes[3];
  state->pixel = (uint32_t)tp_dtype_size(in->dtype) * (channels_last ? channels : 1u);
  state->ratio_h = (float)(1.0 / scale[0]);
  state->ratio_w = (float)(1.0 / scale[1]);
  *run = upsample_nearest_run;
  return TP_OK;
}
