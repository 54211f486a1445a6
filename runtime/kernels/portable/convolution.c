/* aten::convolution.out for 3-D, 2-D (N, C, H, W) and 1-D (N, C, L) float32 convolutions with
 * optional bias, stride, padding, dilation and groups (depthwise included), direct or
 * transposed, on contiguous or channels-last tensors. Transposed, 3-D and channels-last calls
 * run the general routine of engines/conv_nd.h, an extension linked only into firmware whose
 * programs need it (extensions/conv_general.c; else such a call is TP_ERR_UNSUPPORTED); what
 * follows is about the contiguous 1-D and 2-D direct ones.
 *
 * Each output is a float sum over input channel, kernel row, kernel column (in increasing
 * order, skipping taps in the padding) with the bias added last, as ExecuTorch's portable
 * kernel does.
 *
 * Prepare checks the arguments, keeps the geometry in the state (a 1-D convolution is a 2-D
 * one of height 1) and picks the routine for its kind (conv_routine):
 *  - 1x1 filters, stride 1, no padding, one group: a matrix product per image (gemm.c);
 *  - 3x3, stride 1, padding 1, constant finite filters, small planes, an FPU: each group's
 *    input copied once into zero-framed planes on the stack, then each out plane summed over
 *    them in registers (conv_padded3x3, tp_conv_valid3x3);
 *  - other 3-wide filters, stride 1, dilation 1 (any height, padding and groups, depthwise
 *    included): filter-stationary row loops (conv_rows.c) that add one input channel at a
 *    time to the out plane, which holds the partial sums;
 *  - anything else: the general routine, one output position at a time, for four out channels
 *    of a group at once where it has them (each input value loaded once for the four).
 * All add the same products in the same order (runtime/README.md, "Exactness"); a fused
 * activation (TP_KERNEL_TAKES_CLAMP) is applied as the bias is added.
 */
#include "portable/engines/conv_nd.h"
#include "portable/engines/conv_rows.h"
#include "portable/engines/gemm.h"
#include "util/nn.h"

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
  bool clamped;     /* apply `clamp` (a fused activation) to every output */
  tp_clamp clamp;
  tp_gemm gemm;     /* 1x1 convolutions: the product per image */
  bool same3x3;     /* conv_rows3 of a 3x3 filter with padding 1 and W >= 2: whole planes */
} conv_state;

/* convolution.out(Tensor input, Tensor weight, Tensor? bias, SymInt[] stride, SymInt[] padding,
 *   SymInt[] dilation, bool transposed, SymInt[] output_padding, SymInt groups, *, Tensor(a!) out)
 *   -> Tensor(a!): args input, ..., groups, out, out. */
enum {
  IN = TP_CONV_IN,
  WEIGHT = TP_CONV_WEIGHT,
  BIAS = TP_CONV_BIAS,
  STRIDE = TP_CONV_STRIDE,
  PADDING = TP_CONV_PADDING,
  DILATION = TP_CONV_DILATION,
  TRANSPOSED = TP_CONV_TRANSPOSED,
  OUTPUT_PADDING = TP_CONV_OUTPUT_PADDING,
  GROUPS = TP_CONV_GROUPS,
  OUT = TP_CONV_OUT,
  NARGS = TP_CONV_NARGS,
};

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
          TP_MAC(acc, *i++, *k++);
        }
      } else {
        for (int32_t n = cols; n > 0; n--, i += in_col) {
          TP_MAC(acc, *i, *k++);
        }
      }
    }
  }
  return acc;
}

/* window_dot for four out channels at once (filters `step` floats apart): each input value is
 * loaded once for the four products; each sum keeps window_dot's order. */
static TP_NN_NOINLINE void window_dot4(float sums[4], const float *ip, const float *wp, uint32_t step,
                                       int32_t channels, int32_t rows, int32_t cols, const window *w) {
  const uint32_t in_plane = w->in_plane, w_plane = w->w_plane;
  const int32_t in_row = w->in_row, w_row = w->w_row, in_col = w->in_col;
  float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f;
  for (int32_t c = channels; c > 0; c--, ip += in_plane, wp += w_plane) {
    const float *ir = ip;
    const float *wr = wp;
    for (int32_t r = rows; r > 0; r--, ir += in_row, wr += w_row) {
      const float *i = ir;
      const float *k0 = wr, *k1 = k0 + step, *k2 = k1 + step, *k3 = k2 + step;
      for (int32_t n = cols; n > 0; n--, i += in_col) {
        const float x = *i;
        TP_MAC(a0, x, *k0++);
        TP_MAC(a1, x, *k1++);
        TP_MAC(a2, x, *k2++);
        TP_MAC(a3, x, *k3++);
      }
    }
  }
  sums[0] = a0, sums[1] = a1, sums[2] = a2, sums[3] = a3;
}

/* The bias data of a call, or NULL without one. */
static const float *conv_bias(const tp_kernel_call *call) {
  const conv_state *st = call->state;
  return st->has_bias ? (const float *)call->args[BIAS]->as.tensor->data : NULL;
}

/* A finished sum: + the bias, if any, then the fused activation, if any. */
static inline __attribute__((always_inline)) float conv_finish(const conv_state *st, float v, const float *bias) {
  if (bias != NULL) {
    v += *bias;
  }
  return st->clamped ? tp_clamp_apply(&st->clamp, v) : v;
}

/* One 3x3 filter row (w0, w1, w2) over input row r, added to four stride-2 outputs a0..a3 (their
 * windows start at r[0], r[2], r[4], r[6]). */
#define ROW_S2(r, w0, w1, w2)                                                            \
  do {                                                                                   \
    const float x0 = (r)[0], x1 = (r)[1], x2 = (r)[2], x3 = (r)[3], x4 = (r)[4];         \
    const float x5 = (r)[5], x6 = (r)[6], x7 = (r)[7], x8 = (r)[8];                      \
    TP_MAC(a0, x0, w0), TP_MAC(a0, x1, w1), TP_MAC(a0, x2, w2);                          \
    TP_MAC(a1, x2, w0), TP_MAC(a1, x3, w1), TP_MAC(a1, x4, w2);                          \
    TP_MAC(a2, x4, w0), TP_MAC(a2, x5, w1), TP_MAC(a2, x6, w2);                          \
    TP_MAC(a3, x6, w0), TP_MAC(a3, x7, w1), TP_MAC(a3, x8, w2);                          \
  } while (0)

/* `count` consecutive outputs of one out channel of a 3x3, stride 2, dilation 1 convolution whose
 * windows are all inside the input: ip is the first one's window start in the group's first
 * input plane, wp the out channel's filters. Four outputs at a time, each summed over channel,
 * kernel row, kernel column in window_dot's order, then finished (bias, clamp) and stored. */
static TP_NN_NOINLINE void interior3x3_s2(const conv_state *st, float *o, const float *ip, const float *wp,
                                          int32_t count, const float *bias) {
  const int32_t channels = st->icg, in_w = st->in[1];
  const uint32_t in_plane = (uint32_t)st->in[0] * (uint32_t)in_w;
  /* conv_finish with its settings in locals: + the bias, then x < lo ? lo : x, hi < x ? hi : x */
  const bool biased = bias != NULL, clamped = st->clamped;
  const float b = biased ? *bias : 0.0f, lo = st->clamp.lo, hi = st->clamp.hi;
#define FINISH_LOCAL(v) \
  ((v) = biased ? (v) + b : (v), (v) = clamped && (v) < lo ? lo : (v), (v) = clamped && hi < (v) ? hi : (v))
  for (; count >= 4; count -= 4, o += 4, ip += 8) {
    float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f;
    const float *r = ip, *w = wp;
    for (int32_t c = channels; c > 0; c--, r += in_plane, w += 9) {
      ROW_S2(r, w[0], w[1], w[2]);
      ROW_S2(r + in_w, w[3], w[4], w[5]);
      ROW_S2(r + 2 * in_w, w[6], w[7], w[8]);
    }
    FINISH_LOCAL(a0), FINISH_LOCAL(a1), FINISH_LOCAL(a2), FINISH_LOCAL(a3);
    o[0] = a0, o[1] = a1, o[2] = a2, o[3] = a3;
  }
  for (; count > 0; count--, o++, ip += 2) {
    const window win = {in_plane, 9u, in_w, 3, 1};
    float v = window_dot(ip, wp, channels, 3, 3, &win);
    FINISH_LOCAL(v);
    *o = v;
  }
#undef FINISH_LOCAL
}

/* Any convolution: per output position, the taps of its window that fall inside the input,
 * for four out channels of a group at once where it has them (window_dot4), else one; with
 * s3x3 (3x3, stride 2, dilation 1) the interior of each row in interior3x3_s2. Inlined into
 * conv_general twice, so the other convolutions' loop has none of the interior's bookkeeping. */
static inline __attribute__((always_inline)) tp_status general(const tp_kernel_call *call, const bool s3x3) {
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
  const float *bias = conv_bias(call);
  float *o = (float *)call->args[OUT]->as.tensor->data;
  const uint32_t out_plane = (uint32_t)OH * (uint32_t)OW, filter = (uint32_t)ICG * w_plane;
  for (int32_t n = 0; n < N; n++) {
    for (int32_t oc = 0; oc < OC;) {
      const int32_t count = oc % OCG + 4 <= OCG ? 4 : 1; /* out channels of one group together */
      /* input channels of this output channel's group, and its filters */
      const float *in_group = in_data + ((uint32_t)n * (uint32_t)C + (uint32_t)(oc / OCG * ICG)) * in_plane;
      const float *w_oc = w_data + (uint32_t)oc * filter;
      for (int32_t oy = 0; oy < OH; oy++) {
        const int32_t iy0 = oy * s[0] - p[0];
        int32_t ky_lo, ky_hi;
        tp_nn_taps(iy0, KH, d[0], H, &ky_lo, &ky_hi);
        /* 3x3 stride 2 rows whose three input rows are inside: the outputs [x_lo, x_hi) whose
         * three columns are inside too run in interior3x3_s2, the rest below */
        int32_t x_lo = OW, x_hi = OW;
        if (s3x3 && ky_lo == 0 && ky_hi == 3) {
          x_lo = p[1] > 0 ? (p[1] + 1) / 2 : 0;  /* first ox with ox * 2 - p >= 0 */
          x_hi = (W - 3 + p[1]) / 2 + 1;          /* one past the last with ox * 2 - p + 2 < W */
          x_hi = x_hi > OW ? OW : x_hi;
          x_lo = x_lo > x_hi ? x_hi : x_lo;
        }
        for (int32_t ox = 0; ox < OW; ox++, o++) {
          if (ox == x_lo && x_hi > x_lo) {
            const float *ip = in_group + iy0 * W + x_lo * 2 - p[1];
            for (int32_t j = 0; j < count; j++) {
              interior3x3_s2(st, o + (uint32_t)j * out_plane, ip, w_oc + (uint32_t)j * filter, x_hi - x_lo,
                             bias != NULL ? bias + oc + j : NULL);
            }
            o += x_hi - x_lo - 1;
            ox = x_hi - 1;
            continue;
          }
          const int32_t ix0 = ox * s[1] - p[1];
          int32_t kx_lo, kx_hi;
          tp_nn_taps(ix0, KW, d[1], W, &kx_lo, &kx_hi);
          float sums[4];
          sums[0] = sums[1] = sums[2] = sums[3] = 0.0f;
          if (kx_hi > kx_lo && ky_hi > ky_lo) {
            /* the first valid tap in the group's first input plane and in the first filter */
            const float *ip = in_group + (iy0 + ky_lo * d[0]) * W + ix0 + kx_lo * d[1];
            const float *wp = w_oc + ky_lo * KW + kx_lo;
            if (count == 4) {
              window_dot4(sums, ip, wp, filter, ICG, ky_hi - ky_lo, kx_hi - kx_lo, &win);
            } else {
              sums[0] = window_dot(ip, wp, ICG, ky_hi - ky_lo, kx_hi - kx_lo, &win);
            }
          }
          for (int32_t j = 0; j < count; j++) {
            o[(uint32_t)j * out_plane] = conv_finish(st, sums[j], bias != NULL ? bias + oc + j : NULL);
          }
        }
      }
      o += (uint32_t)(count - 1) * out_plane;
      oc += count;
    }
  }
  return TP_OK;
}

static tp_status conv_general(const tp_kernel_call *call) {
  const conv_state *st = call->state;
  if (st->w.k[0] == 3 && st->w.k[1] == 3 && st->w.s[0] == 2 && st->w.s[1] == 2 && st->w.d[0] == 1 &&
      st->w.d[1] == 1 && st->in[1] >= 3) {
    return general(call, true);
  }
  return general(call, false);
}

/* 1x1, stride 1, no padding, one group: out[n] (OC x HW) = weight (OC x C) @ in[n] (C x HW),
 * with the bias per row. */
static tp_status conv_pointwise(const tp_kernel_call *call) {
  const conv_state *st = call->state;
  const tp_gemm *g = &st->gemm;
  const float *in = (const float *)call->args[IN]->as.tensor->data;
  const float *weight = (const float *)call->args[WEIGHT]->as.tensor->data;
  const float *bias = conv_bias(call);
  float *out = (float *)call->args[OUT]->as.tensor->data;
  for (int32_t n = 0; n < st->n; n++, in += g->n * g->p, out += g->m * g->p) {
    tp_gemm_f32(g, out, weight, in, bias);
  }
  return TP_OK;
}

/* Floats of the zero-padded input planes (one group's) conv_padded3x3 keeps on the stack. */
#define PADDED_MAX 512

/* Zeroes `count` floats (a loop GCC would otherwise turn into a memset call, which costs more
 * than it saves on planes this small). */
static void zero(float *o, uint32_t count) {
  for (uint32_t i = 0; i < count; i++) {
    __asm__("" : : "r"(o) : "memory"); /* keeps the loop a loop */
    o[i] = 0.0f;
  }
}

/* Adds the bias to a plane of finished sums and applies the fused activation. */
static void finish_plane(const conv_state *st, float *o, uint32_t count, const float *bias) {
  for (uint32_t i = 0; i < count; i++) {
    o[i] = conv_finish(st, o[i], bias);
  }
}

/* 3-wide filters, stride 1, dilation 1: per out channel, the plane starts at 0 and each input
 * channel of its group adds its filter rows (three at once where all three are inside). */
static tp_status conv_rows3(const tp_kernel_call *call) {
  const conv_state *st = call->state;
  const int32_t N = st->n, C = st->c, OC = st->oc, ICG = st->icg, OCG = st->ocg;
  const int32_t H = st->in[0], W = st->in[1], OH = st->out[0], OW = st->out[1];
  const int32_t KH = st->w.k[0], ph = st->w.p[0], pw = st->w.p[1];
  const uint32_t in_plane = (uint32_t)H * (uint32_t)W, out_plane = (uint32_t)OH * (uint32_t)OW;
  const uint32_t w_plane = (uint32_t)KH * 3u;
  const float *in_data = (const float *)call->args[IN]->as.tensor->data;
  const float *w_data = (const float *)call->args[WEIGHT]->as.tensor->data;
  const float *bias = conv_bias(call);
  float *o = (float *)call->args[OUT]->as.tensor->data;
  for (int32_t n = 0; n < N; n++) {
    for (int32_t oc = 0; oc < OC; oc++, o += out_plane) {
      const float *in_c = in_data + ((uint32_t)n * (uint32_t)C + (uint32_t)(oc / OCG * ICG)) * in_plane;
      const float *w_c = w_data + (uint32_t)oc * (uint32_t)ICG * w_plane;
      zero(o, out_plane);
      for (int32_t c = 0; c < ICG; c++, in_c += in_plane, w_c += w_plane) {
        if (st->same3x3) {
          tp_conv_plane3x3_pad1(o, in_c, w_c, H, W);
          continue;
        }
        float *o_row = o;
        for (int32_t oy = 0; oy < OH; oy++, o_row += OW) {
          const int32_t iy0 = oy - ph;
          int32_t lo, hi;
          tp_nn_taps(iy0, KH, 1, H, &lo, &hi);
          if (KH == 3 && lo == 0 && hi == 3) {
            tp_conv_rows3x3(o_row, in_c + iy0 * W, w_c, OW, W, pw);
            continue;
          }
          for (int32_t ky = lo; ky < hi; ky++) {
            tp_conv_row3(o_row, in_c + (iy0 + ky) * W, w_c + ky * 3, OW, W, pw);
          }
        }
      }
      finish_plane(st, o, out_plane, bias != NULL ? bias + oc : NULL);
    }
  }
  return TP_OK;
}

/* 3x3, stride 1, padding 1, constant finite weights, small planes: each input channel is
 * copied once into a zero-padded plane on the stack, then every out channel of its group adds
 * its 3x3 filter over it with no edge cases (tp_conv_valid3x3). The padding taps add
 * 0 * w = +-0 to a sum that is never -0, which leaves it unchanged: the sums are the same as
 * the general routine's, which skips them. */
static tp_status conv_padded3x3(const tp_kernel_call *call) {
  const conv_state *st = call->state;
  const int32_t ICG = st->icg, OCG = st->ocg, H = st->in[0], W = st->in[1];
  const int32_t PW = W + 2;
  const uint32_t plane = (uint32_t)H * (uint32_t)W, padded_plane = (uint32_t)(H + 2) * (uint32_t)PW;
  float padded[PADDED_MAX];
  const float *in = (const float *)call->args[IN]->as.tensor->data;
  const float *w = (const float *)call->args[WEIGHT]->as.tensor->data;
  const float *bias = conv_bias(call);
  tp_conv3x3_plane job = {
      .out = (float *)call->args[OUT]->as.tensor->data, .in = padded, .in_plane = padded_plane, .w = w,
      .channels = ICG, .out_h = H, .out_w = W, .in_w = PW, .clamp = st->clamped ? &st->clamp : NULL,
  };
  const int32_t groups = st->c / ICG;
  for (int32_t n = 0; n < st->n; n++) {
    job.w = w;
    job.bias = bias;
    for (int32_t g = 0; g < groups; g++) {
      float *p = padded; /* the group's input channels, each framed by a ring of zeros */
      for (int32_t c = 0; c < ICG; c++) {
        zero(p, (uint32_t)PW + 1); /* the top row and the first row's left edge */
        p += PW + 1;
        for (int32_t y = 0; y < H; y++, p += 2) {
          for (int32_t x = 0; x < W; x++) {
            *p++ = *in++;
          }
          p[0] = 0.0f; /* this row's right edge and the next row's left edge */
          p[1] = 0.0f;
        }
        zero(p, (uint32_t)PW - 1); /* the rest of the bottom row */
        p += PW - 1;
      }
      for (int32_t oc = 0; oc < OCG; oc++, job.out += plane, job.w += (uint32_t)ICG * 9u) {
        tp_conv_valid3x3(&job);
        job.bias = job.bias != NULL ? job.bias + 1 : NULL;
      }
    }
  }
  return TP_OK;
}

/* true when every element of a float32 tensor is finite. */
static bool all_finite(const tp_tensor *t) {
  const float *v = (const float *)t->data;
  for (uint32_t i = 0; i < t->numel; i++) {
    if (!(v[i] - v[i] == 0.0f)) { /* inf - inf and NaN - NaN are NaN */
      return false;
    }
  }
  return true;
}

/* The routine for a checked, non-empty convolution of this kind. */
static tp_kernel_run_fn conv_routine(conv_state *st, const tp_tensor *weight) {
  const tp_nn_window2d *w = &st->w;
  const bool stride1 = w->s[0] == 1 && w->s[1] == 1, dilation1 = w->d[0] == 1 && w->d[1] == 1;
  if (w->k[0] == 1 && w->k[1] == 1 && stride1 && w->p[0] == 0 && w->p[1] == 0 && st->icg == st->c) {
    tp_gemm *g = &st->gemm;
    tp_gemm_init(g, (uint32_t)st->oc, (uint32_t)st->c, (uint32_t)st->in[0] * (uint32_t)st->in[1],
                 st->clamped ? &st->clamp : NULL);
    g->bias_row = 1; /* one bias per out channel: per row of the product */
    g->bias_col = 0;
    return conv_pointwise;
  }
  if (w->k[1] == 3 && stride1 && dilation1) {
    st->same3x3 = w->k[0] == 3 && w->p[0] == 1 && w->p[1] == 1 && st->in[1] >= 2;
    const int64_t padded = (int64_t)st->icg * (st->in[0] + 2) * (st->in[1] + 2);
    if (TP_NN_HARD_FLOAT && st->same3x3 && padded <= PADDED_MAX && weight->constant && all_finite(weight)) {
      return conv_padded3x3;
    }
    return conv_rows3;
  }
  return conv_general;
}

static tp_status fast_prepare(const tp_kernel_call *call, conv_state *state, tp_kernel_run_fn *run) {
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
  state->clamped = call->clamp != NULL;
  if (call->clamp != NULL) {
    state->clamp = *call->clamp;
  }
  *run = out->numel == 0 ? tp_nn_run_nothing : conv_routine(state, weight);
  return TP_OK;
}

/* Either routine family's state (each run routine reads its own member, at offset 0). */
typedef union convolution_state {
  conv_state fast;
  tp_conv_nd nd;
} convolution_state;

TP_KERNEL_WITH(aten, convolution, out, convolution_state, TP_KERNEL_TAKES_CLAMP | TP_KERNEL_DIM_ORDERS) {
  tp_tensor *in, *weight, *bias, *out;
  bool transposed;
  TP_CHECK_ARGS(nargs == NARGS);
  TP_TRY(tp_arg_tensor(args, nargs, IN, &in));
  TP_TRY(tp_arg_tensor(args, nargs, WEIGHT, &weight));
  TP_TRY(tp_arg_optional_tensor(args, nargs, BIAS, &bias));
  TP_TRY(tp_arg_bool(args, nargs, TRANSPOSED, &transposed));
  TP_TRY(tp_arg_tensor(args, nargs, OUT, &out));
  if (!tp_nn_is_f32(in) || !tp_nn_is_f32(weight) || !tp_nn_is_f32(out) || (bias != NULL && !tp_nn_is_f32(bias))) {
    return TP_ERR_KERNEL_DTYPE;
  }
  if (transposed || in->dim == 5 || in->channels_last || out->channels_last || weight->channels_last) {
    /* The general routine is an extension (engines/conv_nd.h): linked when a program needs it. */
    if (tp_conv_general_prepare == NULL) {
      return TP_ERR_UNSUPPORTED;
    }
    return tp_conv_general_prepare(call, &state->nd, run);
  }
  return fast_prepare(call, &state->fast, run);
}
