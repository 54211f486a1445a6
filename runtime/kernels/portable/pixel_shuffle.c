/* aten::pixel_shuffle.out and aten::pixel_unshuffle.out: move factor x factor blocks between the
 * channel dimension and the spatial ones. shuffle: (*, C*r*r, H, W) -> (*, C, H*r, W*r) with
 * out[c, h*r + i, w*r + j] = self[c*r*r + i*r + j, h, w]; unshuffle is its inverse. Any dtype.
 * Both are strided views of self over six dimensions (leading ones merged into one), gathered
 * by tp_gather_plan. */
#include "kernel_util.h"

/* pixel_shuffle.out(Tensor self, int upscale_factor, *, Tensor(a!) out) and
 * pixel_unshuffle.out(Tensor self, int downscale_factor, *, Tensor(a!) out): args self, factor, out, out. */
enum { PIXEL_SELF, PIXEL_FACTOR, PIXEL_OUT, PIXEL_NARGS = 4 };

/* Check the call; *n: the leading dimensions' elements, c/h/w: self's last three sizes, r: factor. */
static tp_status pixel_args(const tp_kernel_call *call, tp_tensor **in, tp_tensor **out, uint32_t *n, uint32_t *c,
                            uint32_t *h, uint32_t *w, uint32_t *r) {
  tp_tensor *ret;
  int64_t factor;
  TP_CHECK_ARGS(call->nargs == PIXEL_NARGS);
  TP_TRY(tp_arg_tensor(call->args, call->nargs, PIXEL_SELF, in));
  TP_TRY(tp_arg_int(call->args, call->nargs, PIXEL_FACTOR, &factor));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, PIXEL_OUT, out));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, PIXEL_OUT + 1, &ret));
  if ((*in)->dtype != (*out)->dtype || tp_dtype_size((*in)->dtype) == 0) {
    return TP_ERR_KERNEL_DTYPE;
  }
  const uint32_t dim = (*in)->dim;
  TP_CHECK_ARGS(dim >= 3 && (*out)->dim == dim && factor > 0 && factor <= 65535);
  *n = 1;
  for (uint32_t d = 0; d + 3 < dim; d++) {
    TP_CHECK_ARGS((*out)->sizes[d] == (*in)->sizes[d]);
    *n *= (uint32_t)(*in)->sizes[d];
  }
  *c = (uint32_t)(*in)->sizes[dim - 3];
  *h = (uint32_t)(*in)->sizes[dim - 2];
  *w = (uint32_t)(*in)->sizes[dim - 1];
  *r = (uint32_t)factor;
  return TP_OK;
}

/* The out shape's last three sizes are (a, b, c). */
static bool pixel_out_is(const tp_tensor *out, uint32_t a, uint32_t b, uint32_t c) {
  const uint32_t dim = out->dim;
  return (uint32_t)out->sizes[dim - 3] == a && (uint32_t)out->sizes[dim - 2] == b && (uint32_t)out->sizes[dim - 1] == c;
}

TP_KERNEL(aten, pixel_shuffle, out, tp_gather_state) {
  tp_tensor *in, *out;
  uint32_t n, c, h, w, r;
  TP_TRY(pixel_args(call, &in, &out, &n, &c, &h, &w, &r));
  TP_CHECK_ARGS(c % (r * r) == 0);
  const uint32_t oc = c / (r * r);
  TP_CHECK_ARGS(pixel_out_is(out, oc, h * r, w * r));
  /* out as (n, oc, h, i, w, j), from self (n, oc, i, j, h, w) */
  const int32_t sizes[6] = {(int32_t)n, (int32_t)oc, (int32_t)h, (int32_t)r, (int32_t)w, (int32_t)r};
  const uint32_t hw = h * w;
  const uint32_t strides[6] = {c * hw, r * r * hw, w, r * hw, 1, hw};
  tp_gather_plan(state, 6, sizes, strides, tp_dtype_size(in->dtype), PIXEL_OUT, run);
  return TP_OK;
}

TP_KERNEL(aten, pixel_unshuffle, out, tp_gather_state) {
  tp_tensor *in, *out;
  uint32_t n, c, h, w, r;
  TP_TRY(pixel_args(call, &in, &out, &n, &c, &h, &w, &r));
  TP_CHECK_ARGS(h % r == 0 && w % r == 0);
  const uint32_t oh = h / r, ow = w / r;
  TP_CHECK_ARGS(pixel_out_is(out, c * r * r, oh, ow));
  /* out as (n, c, i, j, oh, ow), from self (n, c, oh, i, ow, j) */
  const int32_t sizes[6] = {(int32_t)n, (int32_t)c, (int32_t)r, (int32_t)r, (int32_t)oh, (int32_t)ow};
  const uint32_t strides[6] = {c * h * w, h * w, w, 1, r * w, r};
  tp_gather_plan(state, 6, sizes, strides, tp_dtype_size(in->dtype), PIXEL_OUT, run);
  return TP_OK;
}
