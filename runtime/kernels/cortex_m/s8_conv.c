/* The int8 convolutions (see s8_conv.h): argument checks, the portable routine, and the fast
 * routines of the _nhwc operators (portable C blocked 2 x 2, Armv7E-M/Armv8-M DSP, Helium). */
#include "s8_conv.h"

#include <string.h>

/* The convolution loops are where an int8 model's time goes: at -Os GCC keeps their sums and
 * pointers on the stack (every step loads and stores them), so this file is compiled for
 * speed whatever the build's level. */
#pragma GCC optimize("O2")

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
#include <arm_mve.h>
#define TP_S8_CONV_MVE 1
#elif defined(__ARM_FEATURE_DSP)
#include <arm_acle.h>
#define TP_S8_CONV_DSP 1
#endif

/* Argument slots: quantized_conv2d(input, weight, bias, stride, padding, dilation, input_offset,
 * output_offset, requantize_multipliers, requantize_shifts, activation_min, activation_max,
 * scratch, *, out) -> out; the depthwise operators take depth_multiplier after dilation. */
enum {
  A_IN,
  A_W,
  A_BIAS,
  A_STRIDE,
  A_PADDING,
  A_DILATION,
  A_DEPTH_MULTIPLIER, /* depthwise only: the slots below move up by one */
  A_IN_OFFSET = 6,
  A_OUT_OFFSET,
  A_MULT,
  A_SHIFT,
  A_MIN,
  A_MAX,
  A_SCRATCH,
  A_OUT,
  A_NARGS = A_OUT + 2,
};

static tp_status pair(tp_value *const *args, uint32_t nargs, uint32_t index, int32_t lo, int32_t *a, int32_t *b) {
  const int64_t *items;
  uint32_t len;
  TP_TRY(tp_arg_int_list(args, nargs, index, &items, &len));
  TP_CHECK_ARGS(len == 2 && items[0] >= lo && items[1] >= lo && items[0] <= INT16_MAX && items[1] <= INT16_MAX);
  *a = (int32_t)items[0];
  *b = (int32_t)items[1];
  return TP_OK;
}

/* A per-channel int32 tensor of `n` elements (requantize multipliers, shifts, bias). */
static tp_status channel_tensor(tp_tensor *t, int32_t n) {
  if (t->dtype != TP_DTYPE_INT32) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(t->dim == 1 && t->sizes[0] == n);
  return TP_OK;
}

/* One out size: (in + 2 pad - dil (k - 1) - 1) / stride + 1, at least 1. */
static tp_status out_size(int32_t in, int32_t k, int32_t stride, int32_t pad, int32_t dil, int32_t *out) {
  const int64_t span = (int64_t)in + 2 * (int64_t)pad - (int64_t)dil * (k - 1) - 1;
  TP_CHECK_ARGS(span >= 0);
  *out = (int32_t)(span / stride + 1);
  return TP_OK;
}

static int32_t round_up(int32_t v, int32_t m) { return (v + m - 1) / m * m; }

uint32_t tp_s8_conv_scratch_bytes(const tp_s8_conv *st, bool fast) {
  if (!fast || !st->fast) {
    return 0;
  }
  /* Four columns (output positions): the DSP routine keeps two of int16 values in groups of
   * four, Helium four of int8 values, the portable one two of int16 values. */
  if (st->depthwise) {
    return 4u * (uint32_t)st->in_c * (uint32_t)round_up(st->k_h * st->k_w, 2);
  }
  return 4u * (uint32_t)round_up(st->k_h * st->k_w * st->in_c, 4);
}

tp_status tp_s8_conv_prepare(const tp_kernel_call *call, tp_s8_conv_kind kind, tp_s8_conv *st,
                             tp_kernel_run_fn *run) {
  tp_value *const *args = call->args;
  const uint32_t n = call->nargs;
  const bool dw = kind == TP_S8_DEPTHWISE_NCHW || kind == TP_S8_DEPTHWISE_NHWC;
  const bool nhwc = kind == TP_S8_CONV_NHWC || kind == TP_S8_DEPTHWISE_NHWC;
  const uint32_t o = dw ? 1u : 0u;
  tp_tensor *in, *w, *bias, *mult, *shift, *scratch, *out, *ret;
  TP_CHECK_ARGS(n == A_NARGS + o);
  TP_TRY(tp_arg_s8_tensor(args, n, A_IN, &in));
  TP_TRY(tp_arg_s8_tensor(args, n, A_W, &w));
  TP_TRY(tp_arg_optional_tensor(args, n, A_BIAS, &bias));
  TP_TRY(pair(args, n, A_STRIDE, 1, &st->stride_h, &st->stride_w));
  TP_TRY(pair(args, n, A_PADDING, 0, &st->pad_h, &st->pad_w));
  TP_TRY(pair(args, n, A_DILATION, 1, &st->dil_h, &st->dil_w));
  int32_t depth_multiplier = 0;
  if (dw) {
    TP_TRY(tp_arg_i32(args, n, A_DEPTH_MULTIPLIER, &depth_multiplier));
  }
  TP_TRY(tp_arg_i32(args, n, A_IN_OFFSET + o, &st->input_offset));
  TP_TRY(tp_arg_i32(args, n, A_OUT_OFFSET + o, &st->output_offset));
  TP_TRY(tp_arg_tensor(args, n, A_MULT + o, &mult));
  TP_TRY(tp_arg_tensor(args, n, A_SHIFT + o, &shift));
  TP_TRY(tp_arg_s8_range(args, n, A_MIN + o, A_MAX + o, &st->act_min, &st->act_max));
  TP_TRY(tp_arg_tensor(args, n, A_SCRATCH + o, &scratch));
  TP_TRY(tp_arg_s8_tensor(args, n, A_OUT + o, &out));
  TP_TRY(tp_arg_tensor(args, n, A_OUT + o + 1, &ret));
  if (scratch->dtype != TP_DTYPE_UINT8) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(st->input_offset >= -127 && st->input_offset <= 128);
  TP_CHECK_ARGS(st->output_offset >= -128 && st->output_offset <= 127);
  TP_CHECK_ARGS(in->dim == 4 && w->dim == 4);

  st->batches = in->sizes[0];
  st->in_c = in->sizes[nhwc ? 3 : 1];
  st->in_h = in->sizes[nhwc ? 1 : 2];
  st->in_w = in->sizes[nhwc ? 2 : 3];
  st->k_h = w->sizes[1];
  st->k_w = w->sizes[2];
  TP_CHECK_ARGS(st->in_c > 0 && st->in_h > 0 && st->in_w > 0 && st->k_h > 0 && st->k_w > 0);
  if (dw) {
    st->out_c = w->sizes[3];
    TP_CHECK_ARGS(w->sizes[0] == 1 && st->out_c > 0 && st->out_c % st->in_c == 0);
    TP_CHECK_ARGS(depth_multiplier == st->out_c / st->in_c);
    st->cin_g = 1;
    st->cout_g = depth_multiplier;
    st->w_so = 1;
    st->w_sy = st->k_w * st->out_c;
    st->w_sx = st->out_c;
    st->w_si = 0;
  } else {
    st->out_c = w->sizes[0];
    st->cin_g = w->sizes[3];
    TP_CHECK_ARGS(st->out_c > 0 && st->cin_g > 0 && st->in_c % st->cin_g == 0);
    const int32_t groups = st->in_c / st->cin_g;
    TP_CHECK_ARGS(st->out_c % groups == 0);
    st->cout_g = st->out_c / groups;
    st->w_si = 1;
    st->w_sx = st->cin_g;
    st->w_sy = st->k_w * st->cin_g;
    st->w_so = st->k_h * st->w_sy;
  }
  TP_TRY(out_size(st->in_h, st->k_h, st->stride_h, st->pad_h, st->dil_h, &st->out_h));
  TP_TRY(out_size(st->in_w, st->k_w, st->stride_w, st->pad_w, st->dil_w, &st->out_w));
  const int32_t want[4] = {st->batches, nhwc ? st->out_h : st->out_c, nhwc ? st->out_w : st->out_h,
                           nhwc ? st->out_c : st->out_w};
  TP_CHECK_ARGS(tp_shape_is(out, 4, want));
  if (bias != NULL) {
    TP_TRY(channel_tensor(bias, st->out_c));
  }
  TP_TRY(channel_tensor(mult, st->out_c));
  TP_TRY(channel_tensor(shift, st->out_c));
  const int32_t *shifts = (const int32_t *)shift->data;
  for (int32_t c = 0; c < st->out_c; c++) {
    TP_CHECK_ARGS(tp_shift_ok(shifts[c]));
  }

  const int32_t hw_in = st->in_h * st->in_w, hw_out = st->out_h * st->out_w;
  st->in_sn = hw_in * st->in_c;
  st->in_sc = nhwc ? 1 : hw_in;
  st->in_sy = nhwc ? st->in_w * st->in_c : st->in_w;
  st->in_sx = nhwc ? st->in_c : 1;
  st->out_sn = hw_out * st->out_c;
  st->out_sc = nhwc ? 1 : hw_out;
  st->out_sy = nhwc ? st->out_w * st->out_c : st->out_w;
  st->out_sx = nhwc ? st->out_c : 1;
  st->depthwise = dw;
  st->fast = nhwc && (dw || st->cin_g == st->in_c);
  st->a_in = A_IN;
  st->a_w = A_W;
  st->a_bias = A_BIAS;
  st->a_mult = (uint8_t)(A_MULT + o);
  st->a_shift = (uint8_t)(A_SHIFT + o);
  st->a_scratch = (uint8_t)(A_SCRATCH + o);
  st->a_out = (uint8_t)(A_OUT + o);
  const uint32_t need = tp_s8_conv_scratch_bytes(st, true);
  TP_CHECK_ARGS(scratch->dim == 1 && scratch->numel >= need);
  TP_CHECK_ARGS(need == 0 || ((uintptr_t)scratch->data & 3u) == 0);
  *run = st->fast ? tp_s8_conv_run_fast : tp_s8_conv_run_portable;
  return TP_OK;
}

/* --- The out element of an accumulator --- */

__attribute__((always_inline)) static inline int8_t finish(const tp_s8_conv *st, uint32_t acc, int32_t mult,
                                                         int32_t shift) {
  const int32_t r = tp_requantize((int32_t)acc, mult, shift);
  return (int8_t)tp_clamp_i32((int32_t)((uint32_t)r + (uint32_t)st->output_offset), st->act_min, st->act_max);
}

/* The epilogue of a call, in locals: when `quick`, every out channel's shift is in [-31, -1]
 * and every accumulator fits in 30 bits (|bias| + K * 255 * 128 < 2^29), so requantize_cmsis
 * is (2 acc * mult + 2^31) >> 32 (SMMULR on DSP cores; 2 acc does not overflow) followed by a
 * rounding right shift (h + 2^(r-1) - (h < 0)) >> r (no overflow: |h| <= 2^29): the same
 * arithmetic as tp_requantize's fast path, without its checks. */
typedef struct epilogue {
  int32_t out_off, lo, hi;
  bool quick;
} epilogue;

static inline epilogue epilogue_of(const tp_s8_conv *st, const tp_s8_conv_data *d, int32_t K) {
  epilogue e = {st->output_offset, st->act_min, st->act_max, false};
  const int64_t bound = (1ll << 29) - (int64_t)K * (255 * 128);
  if (bound <= 0) {
    return e;
  }
  for (int32_t c = 0; c < st->out_c; c++) {
    if (d->shift[c] > -1 || d->shift[c] < -31) {
      return e;
    }
    if (d->bias != NULL && (d->bias[c] >= bound || d->bias[c] <= -bound)) {
      return e;
    }
  }
  e.quick = true;
  return e;
}

__attribute__((always_inline)) static inline int32_t rq_quick(int32_t acc, int32_t mult, int32_t shift) {
#if defined(TP_S8_CONV_DSP)
  int32_t h;
  __asm__("smmulr %0, %1, %2" : "=r"(h) : "r"(acc * 2), "r"(mult));
#else
  const int32_t h = (int32_t)(((int64_t)(acc * 2) * mult + 0x80000000ll) >> 32);
#endif
  const int32_t r = -shift;
  return (h + (h >> 31) + (1 << (r - 1))) >> r;
}

__attribute__((always_inline)) static inline int8_t finish_e(const epilogue *e, uint32_t acc, int32_t mult,
                                                           int32_t shift) {
  const int32_t r = e->quick ? rq_quick((int32_t)acc, mult, shift) : tp_requantize((int32_t)acc, mult, shift);
  return (int8_t)tp_clamp_i32((int32_t)((uint32_t)r + (uint32_t)e->out_off), e->lo, e->hi);
}

static void load_data(const tp_kernel_call *call, const tp_s8_conv *st, tp_s8_conv_data *d) {
  tp_value *const *a = call->args;
  d->in = (const int8_t *)a[st->a_in]->as.tensor->data;
  d->w = (const int8_t *)a[st->a_w]->as.tensor->data;
  d->bias = a[st->a_bias]->tag == TP_TAG_TENSOR ? (const int32_t *)a[st->a_bias]->as.tensor->data : NULL;
  d->mult = (const int32_t *)a[st->a_mult]->as.tensor->data;
  d->shift = (const int32_t *)a[st->a_shift]->as.tensor->data;
  d->scratch = a[st->a_scratch]->as.tensor->data;
  d->out = (int8_t *)a[st->a_out]->as.tensor->data;
}

/* --- Portable: every layout --- */

void tp_s8_conv_portable(const tp_s8_conv *st, const tp_s8_conv_data *d) {
  const int32_t off = st->input_offset;
  for (int32_t b = 0; b < st->batches; b++) {
    const int8_t *in = d->in + b * st->in_sn;
    int8_t *out = d->out + b * st->out_sn;
    for (int32_t oy = 0; oy < st->out_h; oy++) {
      for (int32_t ox = 0; ox < st->out_w; ox++) {
        const int32_t y0 = oy * st->stride_h - st->pad_h, x0 = ox * st->stride_w - st->pad_w;
        for (int32_t oc = 0; oc < st->out_c; oc++) {
          const int32_t ci0 = oc / st->cout_g * st->cin_g;
          const int8_t *wo = d->w + oc * st->w_so;
          uint32_t acc = d->bias != NULL ? (uint32_t)d->bias[oc] : 0u;
          for (int32_t ky = 0; ky < st->k_h; ky++) {
            const int32_t iy = y0 + ky * st->dil_h;
            if (iy < 0 || iy >= st->in_h) {
              continue;
            }
            for (int32_t kx = 0; kx < st->k_w; kx++) {
              const int32_t ix = x0 + kx * st->dil_w;
              if (ix < 0 || ix >= st->in_w) {
                continue;
              }
              const int8_t *xp = in + iy * st->in_sy + ix * st->in_sx + ci0 * st->in_sc;
              const int8_t *wp = wo + ky * st->w_sy + kx * st->w_sx;
              for (int32_t ci = 0; ci < st->cin_g; ci++) {
                acc += (uint32_t)((xp[ci * st->in_sc] + off) * wp[ci * st->w_si]);
              }
            }
          }
          out[oy * st->out_sy + ox * st->out_sx + oc * st->out_sc] = finish(st, acc, d->mult[oc], d->shift[oc]);
        }
      }
    }
  }
}

tp_status tp_s8_conv_run_portable(const tp_kernel_call *call) {
  const tp_s8_conv *st = call->state;
  tp_s8_conv_data d;
  load_data(call, st, &d);
  tp_s8_conv_portable(st, &d);
  return TP_OK;
}

/* --- The fast routines: NHWC, one group or depthwise --- */

/* The input window of output position (oy, ox) of batch b, tap by tap: for each (ky, kx), the
 * Cin input values (when inside) or NULL (padding). */
static inline const int8_t *tap(const tp_s8_conv *st, const int8_t *in, int32_t iy, int32_t ix) {
  return iy < 0 || iy >= st->in_h || ix < 0 || ix >= st->in_w ? NULL : in + iy * st->in_sy + ix * st->in_sx;
}

/* The out element's position: out points at the column's first channel. */
typedef struct column {
  int32_t y0, x0; /* top-left input tap (may be outside) */
  int8_t *out;
} column;

static inline column column_at(const tp_s8_conv *st, int8_t *out, int32_t pos) {
  const int32_t oy = pos / st->out_w, ox = pos % st->out_w;
  column c = {oy * st->stride_h - st->pad_h, ox * st->stride_w - st->pad_w, out + pos * st->out_c};
  return c;
}

/* The taps of a column that lie inside the image: rows [ky0, ky1) and columns [kx0, kx1). */
static inline int32_t first_tap(int32_t origin, int32_t dil) { return origin < 0 ? (-origin + dil - 1) / dil : 0; }
static inline int32_t end_tap(int32_t origin, int32_t size, int32_t k, int32_t dil) {
  const int32_t n = size - origin <= 0 ? 0 : (size - origin + dil - 1) / dil;
  return n < k ? n : k;
}

#if defined(TP_S8_CONV_MVE)
/* ---- Helium: int8 dot products over the window, tail-predicated ---- */

/* The window of a column as int8, K = kh * kw * Cin values; padding taps hold -input_offset,
 * which the offset brings to 0. The dot product adds input_offset * sum(w) afterwards. */
static void im2col_s8(const tp_s8_conv *st, const int8_t *in, column c, int8_t *col) {
  const int32_t cin = st->in_c;
  const int8x16_t pad = vdupq_n_s8((int8_t)-st->input_offset);
  for (int32_t ky = 0; ky < st->k_h; ky++) {
    for (int32_t kx = 0; kx < st->k_w; kx++) {
      const int8_t *src = tap(st, in, c.y0 + ky * st->dil_h, c.x0 + kx * st->dil_w);
      for (int32_t i = 0; i < cin; i += 16) {
        const mve_pred16_t p = vctp8q((uint32_t)(cin - i));
        vstrbq_p_s8(col + i, src != NULL ? vldrbq_z_s8(src + i, p) : pad, p);
      }
      col += cin;
    }
  }
}

/* Four requantized accumulators of out channel oc to four columns' out bytes. */
static void store4(const tp_s8_conv *st, const tp_s8_conv_data *d, int32_t oc, const uint32_t acc[4],
                   int8_t *const outs[4], int32_t ncols) {
  const int32_t mult = d->mult[oc], shift = d->shift[oc];
  if (ncols == 4 && shift <= 0 && mult != INT32_MIN) {
    /* (acc * mult + 2^30) >> 31 is VQRDMULH (which saturates only for INT32_MIN squared);
     * VRSHL rounds half up, so negative values first move down by one: half away from zero,
     * as requantize_cmsis. */
    int32x4_t v = vqrdmulhq_n_s32(vldrwq_s32((const int32_t *)acc), mult);
    if (shift < 0) {
      v = vrshlq_n_s32(vaddq_s32(v, vshrq_n_s32(v, 31)), shift);
    }
    v = vaddq_n_s32(v, st->output_offset);
    v = vmaxq_s32(v, vdupq_n_s32(st->act_min));
    v = vminq_s32(v, vdupq_n_s32(st->act_max));
    const uint32x4_t offs = vmulq_n_u32(vidupq_n_u32(0, 1), (uint32_t)st->out_c);
    vstrbq_scatter_offset_s32(outs[0], offs, v);
    return;
  }
  for (int32_t j = 0; j < ncols; j++) {
    *outs[j] = finish(st, acc[j], mult, shift);
  }
}

static void conv_fast(const tp_s8_conv *st, const tp_s8_conv_data *d) {
  const int32_t K = st->k_h * st->k_w * st->in_c;
  const int32_t npos = st->out_h * st->out_w;
  const uint32_t off = (uint32_t)st->input_offset;
  int8_t *cols = (int8_t *)d->scratch;
  for (int32_t b = 0; b < st->batches; b++) {
    const int8_t *in = d->in + b * st->in_sn;
    int8_t *out = d->out + b * st->out_sn;
    for (int32_t pos = 0; pos < npos; pos += 4) {
      const int32_t ncols = npos - pos < 4 ? npos - pos : 4;
      int8_t *outs[4];
      const int8_t *c[4];
      for (int32_t j = 0; j < 4; j++) {
        const int32_t jj = j < ncols ? j : 0;
        const column cl = column_at(st, out, pos + jj);
        c[j] = cols + jj * K;
        outs[j] = cl.out;
        if (j < ncols) {
          im2col_s8(st, in, cl, cols + j * K);
        }
      }
      const int8_t *wr = d->w;
      for (int32_t oc = 0; oc < st->out_c; oc++, wr += K) {
        int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0, ws = 0;
        int32_t k = 0;
        for (; k + 16 <= K; k += 16) { /* whole vectors, unpredicated */
          const int8x16_t wv = vldrbq_s8(wr + k);
          a0 = vmladavaq_s8(a0, vldrbq_s8(c[0] + k), wv);
          a1 = vmladavaq_s8(a1, vldrbq_s8(c[1] + k), wv);
          a2 = vmladavaq_s8(a2, vldrbq_s8(c[2] + k), wv);
          a3 = vmladavaq_s8(a3, vldrbq_s8(c[3] + k), wv);
          ws = vaddvaq_s8(ws, wv);
        }
        if (k < K) {
          const mve_pred16_t p = vctp8q((uint32_t)(K - k));
          const int8x16_t wv = vldrbq_z_s8(wr + k, p);
          a0 = vmladavaq_p_s8(a0, vldrbq_z_s8(c[0] + k, p), wv, p);
          a1 = vmladavaq_p_s8(a1, vldrbq_z_s8(c[1] + k, p), wv, p);
          a2 = vmladavaq_p_s8(a2, vldrbq_z_s8(c[2] + k, p), wv, p);
          a3 = vmladavaq_p_s8(a3, vldrbq_z_s8(c[3] + k, p), wv, p);
          ws = vaddvaq_p_s8(ws, wv, p);
        }
        const uint32_t base = (d->bias != NULL ? (uint32_t)d->bias[oc] : 0u) + off * (uint32_t)ws;
        const uint32_t acc[4] = {base + (uint32_t)a0, base + (uint32_t)a1, base + (uint32_t)a2,
                                 base + (uint32_t)a3};
        int8_t *o[4] = {outs[0] + oc, outs[1] + oc, outs[2] + oc, outs[3] + oc};
        store4(st, d, oc, acc, o, ncols);
      }
    }
  }
}

/* Depthwise: the window of each input channel of a column, tap after tap (kh * kw int8
 * values; padding -input_offset); the weights of out channel oc, kh * kw taps Cout apart,
 * gathered 16 at a time (byte offsets: needs 15 * Cout <= 255, else the portable routine). */
static void im2col_dw_s8(const tp_s8_conv *st, const int8_t *in, column c, int8_t *col) {
  const int32_t kk = st->k_h * st->k_w, cin = st->in_c;
  const int8_t pad = (int8_t)-st->input_offset;
  int32_t t = 0;
  for (int32_t ky = 0; ky < st->k_h; ky++) {
    for (int32_t kx = 0; kx < st->k_w; kx++, t++) {
      const int8_t *src = tap(st, in, c.y0 + ky * st->dil_h, c.x0 + kx * st->dil_w);
      int8_t *dst = col + t;
      for (int32_t ci = 0; ci < cin; ci++, dst += kk) {
        *dst = src != NULL ? src[ci] : pad;
      }
    }
  }
}

static void dw_fallback(const tp_s8_conv *st, const tp_s8_conv_data *d);

/* Depthwise with one input channel (Cout = depth_multiplier): four out channels per vector,
 * their weights contiguous in each tap, times the tap's value (x + input_offset); the taps
 * inside the image only, no window. */
static void depthwise_c1(const tp_s8_conv *st, const tp_s8_conv_data *d) {
  const int32_t cout = st->out_c, off = st->input_offset, kh = st->k_h, kw = st->k_w;
  const int32_t dil_h = st->dil_h, dil_w = st->dil_w, in_h = st->in_h, in_w = st->in_w;
  const int32_t in_sy = st->in_sy, in_sx = st->in_sx, out_h = st->out_h, out_w = st->out_w;
  const int32_t stride_h = st->stride_h, stride_w = st->stride_w, pad_h = st->pad_h, pad_w = st->pad_w;
  const int32_t step_y = in_sy * dil_h, step_x = in_sx * dil_w, w_row = kw * cout;
  const int32_t out_off = st->output_offset, lo = st->act_min, hi = st->act_max;
  const int32_t *const bias = d->bias, *const mult = d->mult, *const shift = d->shift;
  bool quick = true; /* the vector requantization of store4, every channel with a right shift */
  for (int32_t c = 0; c < cout; c++) {
    quick = quick && shift[c] < 0 && mult[c] != INT32_MIN;
  }
  for (int32_t b = 0; b < st->batches; b++) {
    const int8_t *in = d->in + b * st->in_sn;
    int8_t *out = d->out + b * st->out_sn;
    for (int32_t oy = 0; oy < out_h; oy++) {
      const int32_t y0 = oy * stride_h - pad_h;
      const int32_t ky0 = first_tap(y0, dil_h), ky1 = end_tap(y0, in_h, kh, dil_h);
      for (int32_t ox = 0; ox < out_w; ox++, out += cout) {
        const int32_t x0 = ox * stride_w - pad_w;
        const int32_t kx0 = first_tap(x0, dil_w), kx1 = end_tap(x0, in_w, kw, dil_w);
        const int8_t *x00 = in + (y0 + ky0 * dil_h) * in_sy + (x0 + kx0 * dil_w) * in_sx;
        const int8_t *w00 = d->w + ky0 * w_row + kx0 * cout;
        int32_t oc = 0;
        for (; quick && oc + 8 <= cout; oc += 8) {
          /* Eight channels unpredicated: two vectors share each tap's value. */
          int32x4_t acc0 = vdupq_n_s32(0), acc1 = acc0;
          if (bias != NULL) {
            acc0 = vldrwq_s32(bias + oc);
            acc1 = vldrwq_s32(bias + oc + 4);
          }
          const int8_t *xr = x00, *wr = w00 + oc;
          for (int32_t ky = ky0; ky < ky1; ky++, xr += step_y, wr += w_row) {
            const int8_t *xp = xr, *wp = wr;
            for (int32_t kx = kx0; kx < kx1; kx++, xp += step_x, wp += cout) {
              const int32_t v = *xp + off;
              acc0 = vmlaq_n_s32(acc0, vldrbq_s32(wp), v);
              acc1 = vmlaq_n_s32(acc1, vldrbq_s32(wp + 4), v);
            }
          }
          int32x4_t v0 = vqrdmulhq_s32(acc0, vldrwq_s32(mult + oc));
          int32x4_t v1 = vqrdmulhq_s32(acc1, vldrwq_s32(mult + oc + 4));
          v0 = vrshlq_s32(vaddq_s32(v0, vshrq_n_s32(v0, 31)), vldrwq_s32(shift + oc));
          v1 = vrshlq_s32(vaddq_s32(v1, vshrq_n_s32(v1, 31)), vldrwq_s32(shift + oc + 4));
          v0 = vminq_s32(vmaxq_s32(vaddq_n_s32(v0, out_off), vdupq_n_s32(lo)), vdupq_n_s32(hi));
          v1 = vminq_s32(vmaxq_s32(vaddq_n_s32(v1, out_off), vdupq_n_s32(lo)), vdupq_n_s32(hi));
          vstrbq_s32(out + oc, v0);
          vstrbq_s32(out + oc + 4, v1);
        }
        for (; oc < cout; oc += 4) {
          const mve_pred16_t p = vctp32q((uint32_t)(cout - oc));
          int32x4_t acc = bias != NULL ? vldrwq_z_s32(bias + oc, p) : vdupq_n_s32(0);
          const int8_t *xr = x00, *wr = w00 + oc;
          for (int32_t ky = ky0; ky < ky1; ky++, xr += step_y, wr += w_row) {
            const int8_t *xp = xr, *wp = wr;
            for (int32_t kx = kx0; kx < kx1; kx++, xp += step_x, wp += cout) {
              acc = vmlaq_n_s32(acc, vldrbq_z_s32(wp, p), *xp + off);
            }
          }
          if (quick) {
            int32x4_t v = vqrdmulhq_s32(acc, vldrwq_z_s32(mult + oc, p));
            v = vrshlq_s32(vaddq_s32(v, vshrq_n_s32(v, 31)), vldrwq_z_s32(shift + oc, p));
            v = vaddq_n_s32(v, out_off);
            v = vmaxq_s32(v, vdupq_n_s32(lo));
            v = vminq_s32(v, vdupq_n_s32(hi));
            vstrbq_p_s32(out + oc, v, p);
          } else {
            int32_t a[4];
            vstrwq_s32(a, acc);
            const int32_t n = cout - oc < 4 ? cout - oc : 4;
            for (int32_t j = 0; j < n; j++) {
              out[oc + j] = finish(st, (uint32_t)a[j], mult[oc + j], shift[oc + j]);
            }
          }
        }
      }
    }
  }
}

static void depthwise_fast(const tp_s8_conv *st, const tp_s8_conv_data *d) {
  const int32_t kk = st->k_h * st->k_w, cout = st->out_c;
  if (st->in_c == 1) {
    depthwise_c1(st, d);
    return;
  }
  if ((kk < 16 ? kk - 1 : 15) * cout > 255) {
    dw_fallback(st, d);
    return;
  }
  const int32_t npos = st->out_h * st->out_w, block = st->in_c * kk;
  const uint32_t off = (uint32_t)st->input_offset;
  const uint8x16_t woffs = vmulq_n_u8(vidupq_n_u8(0, 1), (uint8_t)cout);
  int8_t *cols = (int8_t *)d->scratch;
  for (int32_t b = 0; b < st->batches; b++) {
    const int8_t *in = d->in + b * st->in_sn;
    int8_t *out = d->out + b * st->out_sn;
    for (int32_t pos = 0; pos < npos; pos += 4) {
      const int32_t ncols = npos - pos < 4 ? npos - pos : 4;
      int8_t *outs[4];
      const int8_t *c[4];
      for (int32_t j = 0; j < 4; j++) {
        const int32_t jj = j < ncols ? j : 0;
        const column cl = column_at(st, out, pos + jj);
        c[j] = cols + jj * block;
        outs[j] = cl.out;
        if (j < ncols) {
          im2col_dw_s8(st, in, cl, cols + j * block);
        }
      }
      for (int32_t oc = 0; oc < cout; oc++) {
        const int32_t x = oc / st->cout_g * kk;
        int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0, ws = 0;
        for (int32_t t = 0; t < kk; t += 16) {
          const mve_pred16_t p = vctp8q((uint32_t)(kk - t));
          const int8x16_t wv = vldrbq_gather_offset_z_s8(d->w + t * cout + oc, woffs, p);
          a0 = vmladavaq_p_s8(a0, vldrbq_z_s8(c[0] + x + t, p), wv, p);
          a1 = vmladavaq_p_s8(a1, vldrbq_z_s8(c[1] + x + t, p), wv, p);
          a2 = vmladavaq_p_s8(a2, vldrbq_z_s8(c[2] + x + t, p), wv, p);
          a3 = vmladavaq_p_s8(a3, vldrbq_z_s8(c[3] + x + t, p), wv, p);
          ws = vaddvaq_p_s8(ws, wv, p);
        }
        const uint32_t base = (d->bias != NULL ? (uint32_t)d->bias[oc] : 0u) + off * (uint32_t)ws;
        const uint32_t acc[4] = {base + (uint32_t)a0, base + (uint32_t)a1, base + (uint32_t)a2,
                                 base + (uint32_t)a3};
        int8_t *o[4] = {outs[0] + oc, outs[1] + oc, outs[2] + oc, outs[3] + oc};
        store4(st, d, oc, acc, o, ncols);
      }
    }
  }
}

#else
/* ---- Portable C and DSP: int16 windows (input + offset, padding 0), two columns ---- */

/* The window of a column as int16 values x + input_offset (0 for padding), K = kh * kw * Cin. */
static void im2col_s16(const tp_s8_conv *st, const int8_t *in, column c, int16_t *col) {
  const int32_t cin = st->in_c, off = st->input_offset;
  for (int32_t ky = 0; ky < st->k_h; ky++) {
    for (int32_t kx = 0; kx < st->k_w; kx++) {
      const int8_t *src = tap(st, in, c.y0 + ky * st->dil_h, c.x0 + kx * st->dil_w);
      if (src == NULL) {
        memset(col, 0, (size_t)cin * sizeof *col);
      } else {
        for (int32_t i = 0; i < cin; i++) {
          col[i] = (int16_t)(src[i] + off);
        }
      }
      col += cin;
    }
  }
}

/* Depthwise: for each input channel of a column its kh * kw taps (rounded up to even, the
 * last one 0), as x + input_offset (0 for padding). */
static void im2col_dw_s16(const tp_s8_conv *st, const int8_t *in, column c, int16_t *col) {
  const int32_t kk = st->k_h * st->k_w, kp = round_up(kk, 2), cin = st->in_c, off = st->input_offset;
  int32_t t = 0;
  for (int32_t ky = 0; ky < st->k_h; ky++) {
    for (int32_t kx = 0; kx < st->k_w; kx++, t++) {
      const int8_t *src = tap(st, in, c.y0 + ky * st->dil_h, c.x0 + kx * st->dil_w);
      int16_t *dst = col + t;
      for (int32_t ci = 0; ci < cin; ci++, dst += kp) {
        *dst = src != NULL ? (int16_t)(src[ci] + off) : 0;
      }
    }
  }
  if (kp != kk) {
    for (int32_t ci = 0; ci < cin; ci++) {
      col[ci * kp + kk] = 0;
    }
  }
}

#if defined(TP_S8_CONV_DSP)
/* SXTB16 of v rotated right by 8: bytes 1 and 3 (GCC's ACLE has no __sxtb16_ror and does
 * not fold a rotation into SXTB16). */
static inline int16x2_t sxtb16_ror8(uint32_t v) {
  int16x2_t r;
  __asm__("sxtb16 %0, %1, ror #8" : "=r"(r) : "r"(v));
  return r;
}

static inline uint32_t load32(const void *p) {
  uint32_t v;
  memcpy(&v, p, sizeof v);
  return v;
}

/* Two out channels (weights w0 and w0 + K) by two columns (x0 and x0 + ks, int16 in the
 * interleave4 order), K rounded down to a multiple of 4: acc[0..3] += w0.x0, w0.x1, w1.x0,
 * w1.x1; returns the k reached. A function of its own so that its 4 accumulators, 3 pointers
 * and temporaries stay in registers (inlined into the convolution loop, GCC at -Os spilled
 * them to the stack on every step). */
__attribute__((noinline)) static int32_t dot2x2_dsp(const int8_t *w0, const int16_t *x0, int32_t K, int32_t ks,
                                                    uint32_t acc[4]) {
  const int32_t n = K & ~3;
  const int8_t *w = w0, *const end = w0 + n;
  const int16_t *x = x0, *y = x0 + ks;
  int32_t a00 = (int32_t)acc[0], a01 = (int32_t)acc[1], a10 = (int32_t)acc[2], a11 = (int32_t)acc[3];
  while (w < end) {
    const uint32_t wa = load32(w), wb = load32(w + K);
    w += 4;
    int16x2_t p = (int16x2_t)load32(x), q = (int16x2_t)load32(y);
    a00 = __smlad(__sxtb16((int8x4_t)wa), p, a00);
    a01 = __smlad(__sxtb16((int8x4_t)wa), q, a01);
    a10 = __smlad(__sxtb16((int8x4_t)wb), p, a10);
    a11 = __smlad(__sxtb16((int8x4_t)wb), q, a11);
    p = (int16x2_t)load32(x + 2);
    q = (int16x2_t)load32(y + 2);
    x += 4;
    y += 4;
    a00 = __smlad(sxtb16_ror8(wa), p, a00);
    a01 = __smlad(sxtb16_ror8(wa), q, a01);
    a10 = __smlad(sxtb16_ror8(wb), p, a10);
    a11 = __smlad(sxtb16_ror8(wb), q, a11);
  }
  acc[0] = (uint32_t)a00;
  acc[1] = (uint32_t)a01;
  acc[2] = (uint32_t)a10;
  acc[3] = (uint32_t)a11;
  return n;
}

/* Reorders each group of four int16 values (x0, x1, x2, x3) to (x0, x2, x1, x3): the order of
 * SXTB16 on a weight word (bytes 0 and 2) and on it rotated by 8 (bytes 1 and 3). */
static void interleave4(int16_t *col, int32_t k) {
  for (int32_t i = 0; i + 4 <= k; i += 4) {
    const int16_t x1 = col[i + 1];
    col[i + 1] = col[i + 2];
    col[i + 2] = x1;
  }
}
#endif

#if defined(TP_S8_CONV_DSP)
static inline void store32(void *p, uint32_t v) { memcpy(p, &v, sizeof v); }

/* im2col_s16 then interleave4, in one pass, for Cin a multiple of 4 (each tap's groups of four
 * are the window's): a word of four inputs gives (x0, x2) by SXTB16 and (x1, x3) by SXTB16 of
 * it rotated by 8, the offset added to both halves by SADD16 (|x + offset| <= 255). */
static void im2col_s16_il(const tp_s8_conv *st, const int8_t *in, column c, int16_t *col) {
  const int32_t cin = st->in_c;
  const int16x2_t off2 = (int16x2_t)((uint32_t)(uint16_t)st->input_offset * 0x10001u);
  for (int32_t ky = 0; ky < st->k_h; ky++) {
    for (int32_t kx = 0; kx < st->k_w; kx++, col += cin) {
      const int8_t *src = tap(st, in, c.y0 + ky * st->dil_h, c.x0 + kx * st->dil_w);
      if (src == NULL) {
        for (int32_t i = 0; i < cin; i += 2) {
          store32(col + i, 0u);
        }
      } else {
        for (int32_t i = 0; i < cin; i += 4) {
          const uint32_t w = load32(src + i);
          store32(col + i, (uint32_t)__sadd16(__sxtb16((int8x4_t)w), off2));
          store32(col + i + 2, (uint32_t)__sadd16(sxtb16_ror8(w), off2));
        }
      }
    }
  }
}
#endif

static void conv_fast(const tp_s8_conv *st, const tp_s8_conv_data *d) {
  const int32_t K = st->k_h * st->k_w * st->in_c, ks = round_up(K, 4);
  const int32_t npos = st->out_h * st->out_w, cout = st->out_c;
  int16_t *col0 = (int16_t *)d->scratch, *col1 = col0 + ks;
  const epilogue ep = epilogue_of(st, d, K);
  for (int32_t b = 0; b < st->batches; b++) {
    const int8_t *in = d->in + b * st->in_sn;
    int8_t *out = d->out + b * st->out_sn;
    for (int32_t pos = 0; pos < npos; pos += 2) {
      const bool two = pos + 1 < npos;
      const column c0 = column_at(st, out, pos);
      const column c1 = column_at(st, out, two ? pos + 1 : pos);
#if defined(TP_S8_CONV_DSP)
      if (st->in_c % 4 == 0) {
        im2col_s16_il(st, in, c0, col0);
        im2col_s16_il(st, in, two ? c1 : c0, col1);
      } else {
        im2col_s16(st, in, c0, col0);
        if (two) {
          im2col_s16(st, in, c1, col1);
        } else {
          memcpy(col1, col0, (size_t)K * sizeof *col0);
        }
        interleave4(col0, K);
        interleave4(col1, K);
      }
#else
      im2col_s16(st, in, c0, col0);
      if (two) {
        im2col_s16(st, in, c1, col1);
      } else {
        memcpy(col1, col0, (size_t)K * sizeof *col0);
      }
#endif
      int32_t oc = 0;
      for (; oc + 2 <= cout; oc += 2) {
        const int8_t *w0 = d->w + oc * K, *w1 = w0 + K;
        const int16_t *x0 = col0, *x1 = col1;
        const uint32_t b0 = d->bias != NULL ? (uint32_t)d->bias[oc] : 0u;
        const uint32_t b1 = d->bias != NULL ? (uint32_t)d->bias[oc + 1] : 0u;
        uint32_t a00 = b0, a01 = b0, a10 = b1, a11 = b1;
        int32_t k = 0;
#if defined(TP_S8_CONV_DSP)
        uint32_t acc[4] = {a00, a01, a10, a11};
        k = dot2x2_dsp(w0, x0, K, ks, acc);
        a00 = acc[0];
        a01 = acc[1];
        a10 = acc[2];
        a11 = acc[3];
#endif
        for (; k < K; k++) {
          const int32_t wa = w0[k], wb = w1[k], p = x0[k], q = x1[k];
          a00 += (uint32_t)(wa * p);
          a01 += (uint32_t)(wa * q);
          a10 += (uint32_t)(wb * p);
          a11 += (uint32_t)(wb * q);
        }
        c0.out[oc] = finish_e(&ep, a00, d->mult[oc], d->shift[oc]);
        c0.out[oc + 1] = finish_e(&ep, a10, d->mult[oc + 1], d->shift[oc + 1]);
        if (two) {
          c1.out[oc] = finish_e(&ep, a01, d->mult[oc], d->shift[oc]);
          c1.out[oc + 1] = finish_e(&ep, a11, d->mult[oc + 1], d->shift[oc + 1]);
        }
      }
      if (oc < cout) {
        const int8_t *w0 = d->w + oc * K;
        const uint32_t b0 = d->bias != NULL ? (uint32_t)d->bias[oc] : 0u;
        uint32_t a00 = b0, a01 = b0;
        int32_t k = 0;
#if defined(TP_S8_CONV_DSP)
        for (; k + 4 <= K; k += 4) {
          const uint32_t wa = load32(w0 + k);
          const int16x2_t wa02 = __sxtb16((int8x4_t)wa), wa13 = sxtb16_ror8(wa);
          a00 = (uint32_t)__smlad(wa13, (int16x2_t)load32(col0 + k + 2),
                                  __smlad(wa02, (int16x2_t)load32(col0 + k), (int32_t)a00));
          a01 = (uint32_t)__smlad(wa13, (int16x2_t)load32(col1 + k + 2),
                                  __smlad(wa02, (int16x2_t)load32(col1 + k), (int32_t)a01));
        }
#endif
        for (; k < K; k++) {
          a00 += (uint32_t)(w0[k] * col0[k]);
          a01 += (uint32_t)(w0[k] * col1[k]);
        }
        c0.out[oc] = finish_e(&ep, a00, d->mult[oc], d->shift[oc]);
        if (two) {
          c1.out[oc] = finish_e(&ep, a01, d->mult[oc], d->shift[oc]);
        }
      }
    }
  }
}


/* Four out channels' sums over the taps of one position inside the image (ny rows of nx taps
 * from xr, their weights from wr): acc[0..3] += (x + off) * w[.., 0..3]. A function of its own so
 * that the sums and pointers stay in registers. */
__attribute__((noinline)) static void dw_c1_acc4(const int8_t *xr, const int8_t *wr, int32_t ny, int32_t nx,
                                                 int32_t step_y, int32_t step_x, int32_t w_row, int32_t cout,
                                                 int32_t off, uint32_t acc[4]) {
  if (ny <= 0 || nx <= 0) {
    return;
  }
  uint32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
#if defined(TP_S8_CONV_DSP)
  if (nx == 3 && step_x == 1) { /* a row of a 3-wide kernel, unrolled */
    for (int32_t y = 0; y < ny; y++, xr += step_y, wr += w_row) {
      const int8_t *wp = wr;
      for (int32_t t = 0; t < 3; t++, wp += cout) {
        const int32_t v = xr[t] + off;
        const uint32_t w = load32(wp);
        const int16x2_t w02 = __sxtb16((int8x4_t)w), w13 = sxtb16_ror8(w);
        a0 = (uint32_t)__smlabb((int32_t)w02, v, (int32_t)a0);
        a2 = (uint32_t)__smlatb((int32_t)w02, v, (int32_t)a2);
        a1 = (uint32_t)__smlabb((int32_t)w13, v, (int32_t)a1);
        a3 = (uint32_t)__smlatb((int32_t)w13, v, (int32_t)a3);
      }
    }
    acc[0] = a0;
    acc[1] = a1;
    acc[2] = a2;
    acc[3] = a3;
    return;
  }
#endif
  const int32_t wspan = nx * cout;
  for (int32_t y = 0; y < ny; y++, xr += step_y, wr += w_row) {
    const int8_t *xp = xr, *wp = wr, *const wend = wr + wspan;
    do {
      const int32_t v = *xp + off;
      xp += step_x;
#if defined(TP_S8_CONV_DSP)
      const uint32_t w = load32(wp);
      const int16x2_t w02 = __sxtb16((int8x4_t)w), w13 = sxtb16_ror8(w);
      a0 = (uint32_t)__smlabb((int32_t)w02, v, (int32_t)a0);
      a2 = (uint32_t)__smlatb((int32_t)w02, v, (int32_t)a2);
      a1 = (uint32_t)__smlabb((int32_t)w13, v, (int32_t)a1);
      a3 = (uint32_t)__smlatb((int32_t)w13, v, (int32_t)a3);
#else
      a0 += (uint32_t)(v * wp[0]);
      a1 += (uint32_t)(v * wp[1]);
      a2 += (uint32_t)(v * wp[2]);
      a3 += (uint32_t)(v * wp[3]);
#endif
      wp += cout;
    } while (wp != wend);
  }
  acc[0] = a0;
  acc[1] = a1;
  acc[2] = a2;
  acc[3] = a3;
}

/* Depthwise with one input channel (a first layer: Cout = depth_multiplier): out[p, oc] =
 * sum over the taps t inside the image of (x[p + t] + input_offset) * w[t, oc], the weights of
 * a tap being Cout contiguous bytes. No window is built: four out channels at a time keep
 * their sums in registers while the taps go by; on DSP cores each weight word gives channels
 * (0, 2) and (1, 3) by SXTB16 and each multiplies the tap's value by SMLABB/SMLATB. */
static void depthwise_c1(const tp_s8_conv *st, const tp_s8_conv_data *d) {
  /* Locals: the stores of int8 outputs may alias anything, so fields read through st would be
   * loaded again after each. */
  const int32_t cout = st->out_c, off = st->input_offset, kh = st->k_h, kw = st->k_w;
  const int32_t dil_h = st->dil_h, dil_w = st->dil_w, in_h = st->in_h, in_w = st->in_w;
  const int32_t in_sy = st->in_sy, in_sx = st->in_sx, out_h = st->out_h, out_w = st->out_w;
  const int32_t stride_h = st->stride_h, stride_w = st->stride_w, pad_h = st->pad_h, pad_w = st->pad_w;
  const epilogue ep = epilogue_of(st, d, kh * kw);
  const int32_t step_y = in_sy * dil_h, step_x = in_sx * dil_w, w_row = kw * cout;
  const int32_t *const bias = d->bias, *const mult = d->mult, *const shift = d->shift;
  for (int32_t b = 0; b < st->batches; b++) {
    const int8_t *in = d->in + b * st->in_sn;
    int8_t *out = d->out + b * st->out_sn;
    column c = {0, 0, out};
    for (int32_t oy = 0; oy < out_h; oy++) {
     c.y0 = oy * stride_h - pad_h;
     const int32_t ky0 = first_tap(c.y0, dil_h), ky1 = end_tap(c.y0, in_h, kh, dil_h);
     for (int32_t ox = 0; ox < out_w; ox++, c.out += cout) {
      c.x0 = ox * stride_w - pad_w;
      const int32_t kx0 = first_tap(c.x0, dil_w), kx1 = end_tap(c.x0, in_w, kw, dil_w);
      const int8_t *x00 = in + (c.y0 + ky0 * dil_h) * in_sy + (c.x0 + kx0 * dil_w) * in_sx;
      const int8_t *w00 = d->w + ky0 * w_row + kx0 * cout;
      int32_t oc = 0;
      for (; oc + 4 <= cout; oc += 4) {
        uint32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
        if (bias != NULL) {
          a0 = (uint32_t)bias[oc];
          a1 = (uint32_t)bias[oc + 1];
          a2 = (uint32_t)bias[oc + 2];
          a3 = (uint32_t)bias[oc + 3];
        }
        uint32_t acc4[4] = {a0, a1, a2, a3};
        dw_c1_acc4(x00, w00 + oc, ky1 - ky0, kx1 - kx0, step_y, step_x, w_row, cout, off, acc4);
        a0 = acc4[0];
        a1 = acc4[1];
        a2 = acc4[2];
        a3 = acc4[3];
        c.out[oc] = finish_e(&ep, a0, mult[oc], shift[oc]);
        c.out[oc + 1] = finish_e(&ep, a1, mult[oc + 1], shift[oc + 1]);
        c.out[oc + 2] = finish_e(&ep, a2, mult[oc + 2], shift[oc + 2]);
        c.out[oc + 3] = finish_e(&ep, a3, mult[oc + 3], shift[oc + 3]);
      }
      for (; oc < cout; oc++) {
        uint32_t acc = bias != NULL ? (uint32_t)bias[oc] : 0u;
        const int8_t *xr = x00, *wr = w00 + oc;
        for (int32_t ky = ky0; ky < ky1; ky++, xr += step_y, wr += w_row) {
          const int8_t *xp = xr, *wp = wr;
          for (int32_t kx = kx0; kx < kx1; kx++, xp += step_x, wp += cout) {
            acc += (uint32_t)((*xp + off) * *wp);
          }
        }
        c.out[oc] = finish_e(&ep, acc, mult[oc], shift[oc]);
      }
     }
    }
  }
}

static void depthwise_fast(const tp_s8_conv *st, const tp_s8_conv_data *d) {
  const int32_t kk = st->k_h * st->k_w, kp = round_up(kk, 2), cout = st->out_c, dm = st->cout_g;
  if (st->in_c == 1) {
    depthwise_c1(st, d);
    return;
  }
  const int32_t npos = st->out_h * st->out_w, block = st->in_c * kp;
  const epilogue ep = epilogue_of(st, d, kk);
  int16_t *col0 = (int16_t *)d->scratch, *col1 = col0 + block;
  for (int32_t b = 0; b < st->batches; b++) {
    const int8_t *in = d->in + b * st->in_sn;
    int8_t *out = d->out + b * st->out_sn;
    for (int32_t pos = 0; pos < npos; pos += 2) {
      const bool two = pos + 1 < npos;
      const column c0 = column_at(st, out, pos);
      const column c1 = column_at(st, out, two ? pos + 1 : pos);
      im2col_dw_s16(st, in, c0, col0);
      im2col_dw_s16(st, in, c1, col1);
      int32_t oc = 0;
#if defined(TP_S8_CONV_DSP)
      /* Two out channels: a halfword of each of two taps' weights -> SXTB16 pairs. */
      for (; oc + 2 <= cout; oc += 2) {
        const int32_t xa = oc / dm * kp, xb = (oc + 1) / dm * kp;
        const int16_t *pa = col0 + xa, *pb = col0 + xb, *qa = col1 + xa, *qb = col1 + xb;
        const int8_t *wp = d->w + oc;
        int32_t a00 = d->bias != NULL ? d->bias[oc] : 0, a10 = d->bias != NULL ? d->bias[oc + 1] : 0;
        int32_t a01 = a00, a11 = a10;
        int32_t t = 0;
        for (; t + 2 <= kk; t += 2, wp += 2 * cout) {
          uint16_t h0, h1;
          memcpy(&h0, wp, 2);
          memcpy(&h1, wp + cout, 2);
          const uint32_t wv = (uint32_t)h0 | (uint32_t)h1 << 16;
          const int16x2_t wa = __sxtb16((int8x4_t)wv), wb = sxtb16_ror8(wv);
          a00 = __smlad(wa, (int16x2_t)load32(pa + t), a00);
          a01 = __smlad(wa, (int16x2_t)load32(qa + t), a01);
          a10 = __smlad(wb, (int16x2_t)load32(pb + t), a10);
          a11 = __smlad(wb, (int16x2_t)load32(qb + t), a11);
        }
        if (t < kk) {
          a00 = (int32_t)((uint32_t)a00 + (uint32_t)(wp[0] * pa[t]));
          a01 = (int32_t)((uint32_t)a01 + (uint32_t)(wp[0] * qa[t]));
          a10 = (int32_t)((uint32_t)a10 + (uint32_t)(wp[1] * pb[t]));
          a11 = (int32_t)((uint32_t)a11 + (uint32_t)(wp[1] * qb[t]));
        }
        c0.out[oc] = finish_e(&ep, (uint32_t)a00, d->mult[oc], d->shift[oc]);
        c0.out[oc + 1] = finish_e(&ep, (uint32_t)a10, d->mult[oc + 1], d->shift[oc + 1]);
        if (two) {
          c1.out[oc] = finish_e(&ep, (uint32_t)a01, d->mult[oc], d->shift[oc]);
          c1.out[oc + 1] = finish_e(&ep, (uint32_t)a11, d->mult[oc + 1], d->shift[oc + 1]);
        }
      }
#endif
      for (; oc < cout; oc++) {
        const int32_t x = oc / dm * kp;
        const int16_t *p = col0 + x, *q = col1 + x;
        const int8_t *wp = d->w + oc;
        uint32_t a0 = d->bias != NULL ? (uint32_t)d->bias[oc] : 0u, a1 = a0;
        for (int32_t t = 0; t < kk; t++, wp += cout) {
          a0 += (uint32_t)(*wp * p[t]);
          a1 += (uint32_t)(*wp * q[t]);
        }
        c0.out[oc] = finish_e(&ep, a0, d->mult[oc], d->shift[oc]);
        if (two) {
          c1.out[oc] = finish_e(&ep, a1, d->mult[oc], d->shift[oc]);
        }
      }
    }
  }
}
#endif

#if defined(TP_S8_CONV_MVE)
/* The fallback of the Helium depthwise routine for many channels: the portable routine on
 * the NHWC layout (it needs no scratch). */
static void dw_fallback(const tp_s8_conv *st, const tp_s8_conv_data *d) { tp_s8_conv_portable(st, d); }
#endif

void tp_s8_conv_fast(const tp_s8_conv *st, const tp_s8_conv_data *d) {
  if (st->depthwise) {
    depthwise_fast(st, d);
  } else {
    conv_fast(st, d);
  }
}

tp_status tp_s8_conv_run_fast(const tp_kernel_call *call) {
  const tp_s8_conv *st = call->state;
  tp_s8_conv_data d;
  load_data(call, st, &d);
  tp_s8_conv_fast(st, &d);
  return TP_OK;
}

const char *tp_s8_conv_fast_path_name(void) {
#if defined(TP_S8_CONV_MVE)
  return "mve";
#elif defined(TP_S8_CONV_DSP)
  return "dsp";
#else
  return "portable";
#endif
}
