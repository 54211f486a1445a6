/* aten::convolution.out for 2-D (N, C, H, W) and 1-D (N, C, L) float32 convolutions with
 * optional bias, stride, padding, dilation and groups (depthwise included). Transposed
 * convolution is rejected (TP_ERR_KERNEL_ARGS); output_padding only matters for it.
 *
 * Each output is a float sum over input channel, kernel row, kernel column (in increasing
 * order, skipping taps in the padding) with the bias added last, as ExecuTorch's portable
 * kernel does.
 */
#include "nn_util.h"

/* convolution.out(Tensor input, Tensor weight, Tensor? bias, SymInt[] stride, SymInt[] padding,
 *   SymInt[] dilation, bool transposed, SymInt[] output_padding, SymInt groups, *, Tensor(a!) out) */
enum { IN, WEIGHT, BIAS, STRIDE, PADDING, DILATION, TRANSPOSED, OUTPUT_PADDING, GROUPS, OUT, NARGS = OUT + 2 };

/* Reads a stride/padding/dilation list with 1 item (both dimensions) or `ndim` items into
 * v[2] (height, width); for 1-D convolutions v[0] is the height default. */
static tp_status conv_param(tp_value *const *args, uint32_t nargs, uint32_t index, uint32_t ndim, int64_t min,
                            int32_t dflt, int32_t v[2]) {
  const int64_t *items;
  uint32_t len;
  TP_TRY(tp_arg_int_list(args, nargs, index, &items, &len));
  TP_CHECK_ARGS(len == 1 || len == ndim);
  for (uint32_t i = 0; i < ndim; i++) {
    int64_t x = items[len == 1 ? 0 : i];
    TP_CHECK_ARGS(x >= min && x <= INT32_MAX / 4);
    v[2 - ndim + i] = (int32_t)x;
  }
  if (ndim == 1) {
    v[0] = dflt;
  }
  return TP_OK;
}

/* Strides of one output's receptive field, in floats. */
typedef struct window {
  uint32_t in_plane;  /* between input channels */
  uint32_t w_plane;   /* between filter channels */
  int32_t in_row;     /* between kernel rows in the input (dilation_h * W) */
  int32_t w_row;      /* between kernel rows in the filter (KW) */
  int32_t in_col;     /* between kernel columns in the input (dilation_w) */
} window;

/* The float sum over `channels` channels, `rows` kernel rows and `cols` kernel columns (in
 * that nesting, each in increasing order) of input * filter, starting at ip / wp. */
static TP_NN_NOINLINE float window_dot(const float *ip, const float *wp, int32_t channels, int32_t rows,
                                       int32_t cols, const window *w) {
  const uint32_t in_plane = w->in_plane, w_plane = w->w_plane;
  const int32_t in_row = w->in_row, w_row = w->w_row, in_col = w->in_col;
  float acc = 0.0f;
  for (int32_t c = channels; c > 0; c--, ip += in_plane, wp += w_plane) {
    const float *ir = ip;
    const float *wr = wp;
    for (int32_t r = rows; r > 0; r--, ir += in_row, wr += w_row) {
      const float *i = ir;
      const float *k = wr;
      if (in_col == 1) {
        for (int32_t n = cols; n > 0; n--) {
          acc += *i++ * *k++;
        }
      } else {
        for (int32_t n = cols; n > 0; n--, i += in_col) {
          acc += *i * *k++;
        }
      }
    }
  }
  return acc;
}

TP_KERNEL_LEGACY(aten, convolution, out) {
  tp_tensor *in, *weight, *bias, *out;
  const int64_t *items;
  uint32_t len;
  bool transposed;
  int64_t groups64;
  TP_CHECK_ARGS(nargs == NARGS);
  TP_TRY(tp_arg_tensor(args, nargs, IN, &in));
  TP_TRY(tp_arg_tensor(args, nargs, WEIGHT, &weight));
  TP_TRY(tp_arg_optional_tensor(args, nargs, BIAS, &bias));
  TP_TRY(tp_arg_bool(args, nargs, TRANSPOSED, &transposed));
  TP_TRY(tp_arg_int_list(args, nargs, OUTPUT_PADDING, &items, &len));
  TP_TRY(tp_arg_int(args, nargs, GROUPS, &groups64));
  TP_TRY(tp_arg_tensor(args, nargs, OUT, &out));
  if (!tp_nn_is_f32(in) || !tp_nn_is_f32(weight) || !tp_nn_is_f32(out) || (bias != NULL && !tp_nn_is_f32(bias))) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(!transposed);
  TP_CHECK_ARGS((in->dim == 3 || in->dim == 4) && weight->dim == in->dim);
  const uint32_t ndim = in->dim - 2u; /* spatial dims */
  int32_t s[2], p[2], d[2];
  TP_TRY(conv_param(args, nargs, STRIDE, ndim, 1, 1, s));
  TP_TRY(conv_param(args, nargs, PADDING, ndim, 0, 0, p));
  TP_TRY(conv_param(args, nargs, DILATION, ndim, 1, 1, d));

  const int32_t N = in->sizes[0], C = in->sizes[1];
  const int32_t H = ndim == 2 ? in->sizes[2] : 1, W = in->sizes[in->dim - 1];
  const int32_t OC = weight->sizes[0], ICG = weight->sizes[1];
  const int32_t KH = ndim == 2 ? weight->sizes[2] : 1, KW = weight->sizes[weight->dim - 1];
  TP_CHECK_ARGS(groups64 >= 1 && groups64 <= OC && KH >= 1 && KW >= 1);
  const int32_t G = (int32_t)groups64;
  TP_CHECK_ARGS(OC % G == 0 && (int64_t)ICG * G == C);
  if (bias != NULL) {
    TP_CHECK_ARGS(bias->dim == 1 && bias->sizes[0] == OC);
  }
  const int32_t OH = tp_nn_out_size(H, KH, s[0], p[0], d[0], false);
  const int32_t OW = tp_nn_out_size(W, KW, s[1], p[1], d[1], false);
  TP_CHECK_ARGS(OH > 0 && OW > 0);
  const int32_t expect[4] = {N, OC, OH, OW};
  if (ndim == 2) {
    TP_CHECK_ARGS(tp_nn_has_shape(out, 4, expect));
  } else {
    const int32_t expect1[3] = {N, OC, OW};
    TP_CHECK_ARGS(tp_nn_has_shape(out, 3, expect1));
  }
  if (out->numel == 0) {
    return TP_OK;
  }

  const uint32_t in_plane = (uint32_t)H * (uint32_t)W;
  const uint32_t w_plane = (uint32_t)KH * (uint32_t)KW;
  const int32_t OCG = OC / G;
  const window win = {in_plane, w_plane, d[0] * W, KW, d[1]};
  const float *bias_data = bias != NULL ? (const float *)bias->data : NULL;
  float *o = (float *)out->data;
  for (int32_t n = 0; n < N; n++) {
    for (int32_t oc = 0; oc < OC; oc++) {
      /* input channels of this output channel's group, and its filters */
      const float *in_group = (const float *)in->data + ((uint32_t)n * (uint32_t)C + (uint32_t)(oc / OCG * ICG)) * in_plane;
      const float *w_oc = (const float *)weight->data + (uint32_t)oc * (uint32_t)ICG * w_plane;
      for (int32_t oy = 0; oy < OH; oy++) {
        const int32_t iy0 = oy * s[0] - p[0];
        int32_t ky_lo, ky_hi;
        tp_nn_taps(iy0, KH, d[0], H, &ky_lo, &ky_hi);
        for (int32_t ox = 0; ox < OW; ox++) {
          const int32_t ix0 = ox * s[1] - p[1];
          int32_t kx_lo, kx_hi;
          tp_nn_taps(ix0, KW, d[1], W, &kx_lo, &kx_hi);
          float acc = 0.0f;
          if (kx_hi > kx_lo && ky_hi > ky_lo) {
            /* the first valid tap in the group's first input plane and in the first filter */
            acc = window_dot(in_group + (iy0 + ky_lo * d[0]) * W + ix0 + kx_lo * d[1], w_oc + ky_lo * KW + kx_lo, ICG,
                             ky_hi - ky_lo, kx_hi - kx_lo, &win);
          }
          if (bias_data != NULL) {
            acc += bias_data[oc];
          }
          *o++ = acc;
        }
      }
    }
  }
  return TP_OK;
}
