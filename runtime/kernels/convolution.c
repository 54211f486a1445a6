/* aten::convolution.out for 2-D (N, C, H, W) and 1-D (N, C, L) float32 convolutions with
 * optional bias, stride, padding, dilation and groups (depthwise included). Transposed
 * convolution is rejected (TP_ERR_KERNEL_ARGS); output_padding only matters for it.
 *
 * Each output is a float sum over input channel, kernel row, kernel column (in increasing
 * order, skipping taps in the padding) with the bias added last, as ExecuTorch's portable
 * kernel does.
 *
 * Prepare checks the arguments, keeps the geometry in the state (a 1-D convolution is a 2-D
 * one of height 1) and picks the routine for its kind (conv_routine); there is one routine,
 * the general one, for now.
 */
#include "nn_util.h"

/* What run needs: the sizes and the window; index 0 = height, 1 = width. */
typedef struct conv_state {
  int32_t n;        /* images */
  int32_t c;        /* input channels */
  int32_t oc;       /* output channels */
  int32_t icg, ocg; /* input and output channels per group */
  int32_t in[2];    /* input plane H, W */
  int32_t out[2];   /* output plane OH, OW */
  tp_nn_window2d w; /* filter size KH, KW, stride, padding, dilation */
  bool has_bias;
} conv_state;

/* convolution.out(Tensor input, Tensor weight, Tensor? bias, SymInt[] stride, SymInt[] padding,
 *   SymInt[] dilation, bool transposed, SymInt[] output_padding, SymInt groups, *, Tensor(a!) out)
 *   -> Tensor(a!): args input, ..., groups, out, out. */
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

/* Any convolution: per output, the taps of its window that fall inside the input. */
static tp_status conv_general(const tp_kernel_call *call) {
  const conv_state *st = call->state;
  const int32_t N = st->n, C = st->c, OC = st->oc, ICG = st->icg, OCG = st->ocg;
  const int32_t H = st->in[0], W = st->in[1], OH = st->out[0], OW = st->out[1];
  const int32_t KH = st->w.k[0], KW = st->w.k[1];
  const int32_t s[2] = {st->w.s[0], st->w.s[1]}, p[2] = {st->w.p[0], st->w.p[1]}, d[2] = {st->w.d[0], st->w.d[1]};
  const uint32_t in_plane = (uint32_t)H * (uint32_t)W;
  const uint32_t w_plane = (uint32_t)KH * (uint32_t)KW;
  const window win = {in_plane, w_plane, d[0] * W, KW, d[1]};
  const float *in_data = (const float *)call->args[IN]->as.tensor->data;
  const float *w_data = (const float *)call->args[WEIGHT]->as.tensor->data;
  const float *bias_data = st->has_bias ? (const float *)call->args[BIAS]->as.tensor->data : NULL;
  float *o = (float *)call->args[OUT]->as.tensor->data;
  for (int32_t n = 0; n < N; n++) {
    for (int32_t oc = 0; oc < OC; oc++) {
      /* input channels of this output channel's group, and its filters */
      const float *in_group = in_data + ((uint32_t)n * (uint32_t)C + (uint32_t)(oc / OCG * ICG)) * in_plane;
      const float *w_oc = w_data + (uint32_t)oc * (uint32_t)ICG * w_plane;
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

/* The kinds of convolution a specialised routine could serve. */
typedef enum conv_kind {
  CONV_GENERAL,   /* anything else */
  CONV_DEPTHWISE, /* one input channel per group (groups == C > 1): a 2-D filter per channel */
  CONV_POINTWISE, /* 1x1 filter, stride 1, no padding, one group: a matrix product per image */
} conv_kind;

static conv_kind conv_kind_of(const conv_state *st) {
  const tp_nn_window2d *w = &st->w;
  if (w->k[0] == 1 && w->k[1] == 1 && w->s[0] == 1 && w->s[1] == 1 && w->p[0] == 0 && w->p[1] == 0 &&
      st->icg == st->c) {
    return CONV_POINTWISE;
  }
  if (st->icg == 1 && st->c > 1) {
    return CONV_DEPTHWISE;
  }
  return CONV_GENERAL;
}

/* The routine for a checked, non-empty convolution of this kind. Specialised routines slot in
 * here; until they exist every kind runs the general one. */
static tp_kernel_run_fn conv_routine(const conv_state *st) {
  switch (conv_kind_of(st)) {
    case CONV_DEPTHWISE:
    case CONV_POINTWISE:
    case CONV_GENERAL:
      break;
  }
  return conv_general;
}

TP_KERNEL(aten, convolution, out, conv_state) {
  tp_value *const *args = call->args;
  const uint32_t nargs = call->nargs;
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
  tp_nn_window2d *w = &state->w;
  TP_TRY(conv_param(args, nargs, STRIDE, ndim, 1, 1, w->s));
  TP_TRY(conv_param(args, nargs, PADDING, ndim, 0, 0, w->p));
  TP_TRY(conv_param(args, nargs, DILATION, ndim, 1, 1, w->d));

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
  const int32_t OH = tp_nn_out_size(H, KH, w->s[0], w->p[0], w->d[0], false);
  const int32_t OW = tp_nn_out_size(W, KW, w->s[1], w->p[1], w->d[1], false);
  TP_CHECK_ARGS(OH > 0 && OW > 0);
  const int32_t expect[4] = {N, OC, OH, OW};
  if (ndim == 2) {
    TP_CHECK_ARGS(tp_nn_has_shape(out, 4, expect));
  } else {
    const int32_t expect1[3] = {N, OC, OW};
    TP_CHECK_ARGS(tp_nn_has_shape(out, 3, expect1));
  }

  state->n = N;
  state->c = C;
  state->oc = OC;
  state->icg = ICG;
  state->ocg = OC / G;
  state->in[0] = H;
  state->in[1] = W;
  state->out[0] = OH;
  state->out[1] = OW;
  w->k[0] = KH;
  w->k[1] = KW;
  state->has_bias = bias != NULL;
  *run = out->numel == 0 ? tp_nn_run_nothing : conv_routine(state);
  return TP_OK;
}
