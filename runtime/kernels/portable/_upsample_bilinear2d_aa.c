/* aten::_upsample_bilinear2d_aa.out: antialiased bilinear resize of an NCHW tensor to
 * output_size: each out pixel is the triangle-filter weighted sum of the input pixels within
 * the filter's support (the scale when shrinking, 1 when enlarging), weights normalized per
 * axis; the arithmetic of ExecuTorch's portable kernel in float (its accumulator has the
 * tensor's dtype: integers truncate after every term). Any real dtype. */
#include <math.h>

#include "util/elem.h"
#include "kernel_util.h"

typedef struct upsample_aa_state {
  uint32_t planes, in_h, in_w, out_h, out_w;
  float scale_h, scale_w; /* input pixels per output pixel */
  uint8_t dtype;
} upsample_aa_state;

/* _upsample_bilinear2d_aa.out(Tensor self, SymInt[2] output_size, bool align_corners, float? scales_h=None,
 * float? scales_w=None, *, Tensor(a!) out) -> Tensor(a!): args self, output_size, align_corners,
 * scales_h, scales_w, out, out. */
enum { AA_SELF, AA_SIZE, AA_ALIGN, AA_SCALES_H, AA_SCALES_W, AA_OUT };

/* One output index's filter along an axis: input range [lo, hi), center, 1 / support scale,
 * the weights' total, or a single fallback input index (>= 0). */
typedef struct aa_filter {
  int64_t lo, hi, fallback;
  float center, invscale, total;
} aa_filter;

static float aa_triangle(float x) {
  x = fabsf(x);
  return x < 1.0f ? 1.0f - x : 0.0f;
}

static aa_filter aa_filter_for(uint32_t out_index, float scale, uint32_t in_size) {
  aa_filter f;
  f.center = scale * ((float)out_index + 0.5f);
  const float support = scale >= 1.0f ? scale : 1.0f;
  f.invscale = scale >= 1.0f ? 1.0f / scale : 1.0f;
  const int64_t lo = (int64_t)(f.center - support + 0.5f);
  const int64_t hi = (int64_t)(f.center + support + 0.5f);
  f.lo = lo > 0 ? lo : 0;
  f.hi = hi < (int64_t)in_size ? hi : (int64_t)in_size;
  f.fallback = -1;
  f.total = 0.0f;
  for (int64_t x = f.lo; x < f.hi; x++) {
    f.total += aa_triangle(((float)x - f.center + 0.5f) * f.invscale);
  }
  if (f.hi <= f.lo || f.total <= 0.0f) {
    const int64_t c = (int64_t)f.center;
    f.fallback = c < 0 ? 0 : c > (int64_t)in_size - 1 ? (int64_t)in_size - 1 : c;
    f.lo = f.fallback;
    f.hi = f.fallback + 1;
    f.total = 1.0f;
  }
  return f;
}

static float aa_weight(const aa_filter *f, int64_t i) {
  if (f->fallback >= 0) {
    return i == f->fallback ? 1.0f : 0.0f;
  }
  return aa_triangle(((float)i - f->center + 0.5f) * f->invscale) / f->total;
}

static tp_status upsample_aa_run(const tp_kernel_call *call) {
  const upsample_aa_state *st = call->state;
  const void *x = call->args[AA_SELF]->as.tensor->data;
  void *o = call->args[AA_OUT]->as.tensor->data;
  const bool is_float = st->dtype == TP_DTYPE_FLOAT32;
  for (uint32_t p = 0; p < st->planes; p++) {
    const uint32_t in_base = p * st->in_h * st->in_w, out_base = p * st->out_h * st->out_w;
    for (uint32_t oh = 0; oh < st->out_h; oh++) {
      const aa_filter fh = aa_filter_for(oh, st->scale_h, st->in_h);
      for (uint32_t ow = 0; ow < st->out_w; ow++) {
        const aa_filter fw = aa_filter_for(ow, st->scale_w, st->in_w);
        float facc = 0.0f;
        int64_t iacc = 0;
        for (int64_t ih = fh.lo; ih < fh.hi; ih++) {
          const float wh = aa_weight(&fh, ih);
          for (int64_t iw = fw.lo; iw < fw.hi; iw++) {
            const float ww = aa_weight(&fw, iw);
            const float v = (float)tp_elem_load_f64(x, st->dtype, in_base + (uint32_t)(ih * st->in_w + iw));
            if (is_float) {
              facc += v * wh * ww;
            } else {
              iacc = tp_f64_to_i64((double)((float)iacc + v * wh * ww));
            }
          }
        }
        const uint32_t at = out_base + oh * st->out_w + ow;
        if (is_float) {
          ((float *)o)[at] = facc;
        } else {
          tp_elem_store_i64(o, st->dtype, at, iacc);
        }
      }
    }
  }
  return TP_OK;
}

TP_KERNEL(aten, _upsample_bilinear2d_aa, out, upsample_aa_state) {
  tp_tensor *in, *out;
  const int64_t *size;
  uint32_t nsize;
  bool align, has_h, has_w;
  double scale_h, scale_w;
  TP_TRY(tp_elementwise_args(call, AA_OUT, &in, &out));
  TP_TRY(tp_arg_int_list(call->args, call->nargs, AA_SIZE, &size, &nsize));
  TP_TRY(tp_arg_bool(call->args, call->nargs, AA_ALIGN, &align));
  TP_TRY(tp_arg_optional_scalar(call->args, call->nargs, AA_SCALES_H, &scale_h, &has_h));
  TP_TRY(tp_arg_optional_scalar(call->args, call->nargs, AA_SCALES_W, &scale_w, &has_w));
  if (in->dtype != out->dtype || !tp_dtype_is_real(in->dtype)) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(in->dim == 4 && nsize == 2 && size[0] > 0 && size[1] > 0 && size[0] <= INT32_MAX &&
                size[1] <= INT32_MAX);
  const int32_t sizes[4] = {in->sizes[0], in->sizes[1], (int32_t)size[0], (int32_t)size[1]};
  TP_CHECK_ARGS(tp_shape_is(out, 4, sizes) && in->sizes[2] > 0 && in->sizes[3] > 0);
  if (!(has_h && has_w)) {
    scale_h = (double)size[0] / (double)in->sizes[2];
    scale_w = (double)size[1] / (double)in->sizes[3];
  }
  TP_CHECK_ARGS(scale_h > 0.0 && scale_w > 0.0);
  const double ih = in->sizes[2], iw = in->sizes[3];
  state->scale_h = (float)(align ? (size[0] > 1 ? (ih - 1.0) / (double)(size[0] - 1) : 0.0) : 1.0 / scale_h);
  state->scale_w = (float)(align ? (size[1] > 1 ? (iw - 1.0) / (double)(size[1] - 1) : 0.0) : 1.0 / scale_w);
  /* a filter wider than a million input pixels is a corrupt program, not a resize */
  TP_CHECK_ARGS(state->scale_h >= 0.0f && state->scale_h < 1e6f && state->scale_w >= 0.0f && state->scale_w < 1e6f);
  state->planes = (uint32_t)in->sizes[0] * (uint32_t)in->sizes[1];
  state->in_h = (uint32_t)in->sizes[2];
  state->in_w = (uint32_t)in->sizes[3];
  state->out_h = (uint32_t)size[0];
  state->out_w = (uint32_t)size[1];
  state->dtype = (uint8_t)in->dtype;
  *run = upsample_aa_run;
  return TP_OK;
}
