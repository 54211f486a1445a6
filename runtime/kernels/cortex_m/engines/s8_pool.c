/* The int8 2-D poolings of the Cortex-M backend (see s8_pool.h). */
#include "cortex_m/engines/s8_pool.h"

#include "util/nn.h"
#include "tinypte/two_cores_hand_over.h"

/* Kernel and stride bound, so the window arithmetic of run stays well inside int32. */
#define POOL_MAX_WINDOW 65535

/* quantized_max_pool2d(_nhwc).out(Tensor input, int[] kernel_size, int[] stride, int[] padding,
 * int[] dilation, bool ceil_mode, int input_zero_point, int output_zero_point,
 * int activation_min, int activation_max, *, Tensor(a!) out) -> Tensor(a!) */
enum { MP_INPUT, MP_KERNEL, MP_STRIDE, MP_PADDING, MP_DILATION, MP_CEIL, MP_IN_ZP, MP_OUT_ZP, MP_MIN, MP_MAX,
       MP_OUT, MP_NARGS = 12 };

/* quantized_avg_pool2d(_nhwc).out(Tensor input, int[] kernel_size, int[] stride, int[] padding,
 * bool ceil_mode, int zero_point, int multiplier, int shift, Tensor scratch, *,
 * Tensor(a!) out) -> Tensor(a!) */
enum { AP_INPUT, AP_KERNEL, AP_STRIDE, AP_PADDING, AP_CEIL, AP_ZP, AP_MULT, AP_SHIFT, AP_SCRATCH, AP_OUT,
       AP_NARGS = 11 };

/* Both share input, kernel_size, stride and padding at args 0..3. */
enum { P_INPUT, P_KERNEL, P_STRIDE, P_PADDING };

/* The int8 input (args[0]), out (args[out_index]) and returned out: their dtypes first. */
static tp_status pool_tensors(const tp_kernel_call *call, uint32_t out_index, tp_tensor **in, tp_tensor **out) {
  tp_tensor *ret;
  TP_TRY(tp_arg_s8_tensor(call->args, call->nargs, P_INPUT, in));
  TP_TRY(tp_arg_s8_tensor(call->args, call->nargs, out_index, out));
  return tp_arg_tensor(call->args, call->nargs, out_index + 1, &ret);
}

/* The window (args 1..3) and the shapes of in and out. */
static tp_status pool_geometry(const tp_kernel_call *call, const tp_tensor *in, const tp_tensor *out, bool nhwc,
                               bool ceil_mode, tp_s8_pool *g) {
  int32_t k[2], s[2], p[2], o[2];
  TP_TRY(tp_arg_pair(call->args, call->nargs, P_KERNEL, k));
  TP_TRY(tp_arg_pair(call->args, call->nargs, P_STRIDE, s));
  TP_TRY(tp_arg_pair(call->args, call->nargs, P_PADDING, p));
  TP_CHECK_ARGS(in->dim == 4);
  const int32_t n = in->sizes[0];
  const int32_t c = in->sizes[nhwc ? 3 : 1];
  const int32_t hw[2] = {in->sizes[nhwc ? 1 : 2], in->sizes[nhwc ? 2 : 3]};
  TP_CHECK_ARGS(c >= 1 && hw[0] >= 1 && hw[1] >= 1);
  for (uint32_t d = 0; d < 2; d++) {
    TP_CHECK_ARGS(k[d] >= 1 && k[d] <= POOL_MAX_WINDOW && s[d] >= 1 && s[d] <= POOL_MAX_WINDOW);
    TP_CHECK_ARGS(p[d] >= 0 && p[d] <= k[d] / 2);
    o[d] = tp_nn_out_size(hw[d], k[d], s[d], p[d], 1, ceil_mode);
    TP_CHECK_ARGS(o[d] >= 1);
  }
  const int32_t want_nhwc[4] = {n, o[0], o[1], c};
  const int32_t want_nchw[4] = {n, c, o[0], o[1]};
  TP_CHECK_ARGS(tp_shape_is(out, 4, nhwc ? want_nhwc : want_nchw));
  *g = (tp_s8_pool){n, c, hw[0], hw[1], o[0], o[1], k[0], k[1], s[0], s[1], p[0], p[1]};
  return TP_OK;
}

/* The input rows (or columns) [*a, *b) of out row `o`'s window (never empty: padding is at most
 * half the window). */
static inline void window(int32_t o, int32_t s, int32_t p, int32_t k, int32_t n, int32_t *a, int32_t *b) {
  const int32_t start = o * s - p;
  const int32_t end = start + k;
  *a = start < 0 ? 0 : start;
  *b = end > n ? n : end;
}

/* The int8 data of a call's input (args[0]) and of its out (args[out_index]). */
static inline const int8_t *pool_in(const tp_kernel_call *call) {
  return (const int8_t *)call->args[P_INPUT]->as.tensor->data;
}
static inline int8_t *pool_out(const tp_kernel_call *call, uint32_t out_index) {
  return (int8_t *)call->args[out_index]->as.tensor->data;
}

/* NCHW (either pooling): one plane at a time, each out element (of args[out_index]) its window's
 * maximum, at least lo and at most hi, or when `avg` its average (avg_quantize with scale and zp;
 * lo and hi unused). Defined after avg_quantize. */
__attribute__((always_inline)) static inline void pool_nchw(const tp_kernel_call *call, uint32_t out_index,
                                                           const tp_s8_pool *geometry, bool avg, int32_t lo,
                                                           int32_t hi, float scale, int32_t zp);

/* A (height, width) pair argument prepare accepted: one item stands for both. */
static void pair_items(const tp_value *v, int32_t p[2]) {
  p[0] = (int32_t)v->as.int_list.items[0];
  p[1] = (int32_t)v->as.int_list.items[v->as.int_list.len == 2 ? 1 : 0];
}

/* The geometry of a call prepare accepted (out at args[out_index]), from its arguments: no checks,
 * the out sizes read from the out (no division). */
static void derive_geometry(const tp_kernel_call *call, uint32_t out_index, tp_s8_pool *g) {
  const bool nhwc = ((const tp_s8_pool_call *)call->state)->nhwc != 0;
  const tp_tensor *in = call->args[P_INPUT]->as.tensor, *out = call->args[out_index]->as.tensor;
  int32_t k[2], s[2], p[2];
  pair_items(call->args[P_KERNEL], k);
  pair_items(call->args[P_STRIDE], s);
  pair_items(call->args[P_PADDING], p);
  *g = (tp_s8_pool){in->sizes[0], in->sizes[nhwc ? 3 : 1], in->sizes[nhwc ? 1 : 2], in->sizes[nhwc ? 2 : 3],
                    out->sizes[nhwc ? 1 : 2], out->sizes[nhwc ? 2 : 3], k[0], k[1], s[0], s[1], p[0], p[1]};
}

/* --- Max pool ----------------------------------------------------------------------------- */

static void max_pool_derive(const tp_kernel_call *call, tp_s8_max_pool_state *st) {
  derive_geometry(call, MP_OUT, &st->g);
  st->lo = (int32_t)call->args[MP_MIN]->as.i;
  st->hi = (int32_t)call->args[MP_MAX]->as.i;
}

tp_status tp_s8_max_pool_prepare(const tp_kernel_call *call, tp_s8_pool_call *state, bool nhwc,
                                 tp_s8_max_pool_state *st) {
  tp_tensor *in, *out;
  int32_t dilation[2], in_zp, out_zp;
  bool ceil_mode;
  TP_CHECK_ARGS(call->nargs == MP_NARGS);
  TP_TRY(pool_tensors(call, MP_OUT, &in, &out));
  TP_TRY(tp_arg_pair(call->args, call->nargs, MP_DILATION, dilation));
  TP_TRY(tp_arg_bool(call->args, call->nargs, MP_CEIL, &ceil_mode));
  TP_TRY(tp_arg_i32(call->args, call->nargs, MP_IN_ZP, &in_zp));
  TP_TRY(tp_arg_i32(call->args, call->nargs, MP_OUT_ZP, &out_zp));
  TP_TRY(tp_arg_s8_range(call->args, call->nargs, MP_MIN, MP_MAX, &st->lo, &st->hi));
  /* The reference refuses all three. */
  TP_CHECK_ARGS(dilation[0] == 1 && dilation[1] == 1 && !ceil_mode && in_zp == out_zp);
  TP_TRY(pool_geometry(call, in, out, nhwc, false, &st->g));
  state->nhwc = nhwc;
  return TP_OK;
}

static inline int8_t max_s8(int8_t a, int8_t b) { return a > b ? a : b; }

static inline int8_t clamp_s8(int32_t v, int32_t lo, int32_t hi) { return (int8_t)(v < lo ? lo : (v > hi ? hi : v)); }

/* NHWC: each out pixel's C channels are the running maxima over the window's pixels. */
tp_status tp_s8_max_pool_nhwc_run(const tp_kernel_call *call) {
  tp_s8_max_pool_state derived;
  max_pool_derive(call, &derived);
  const tp_s8_max_pool_state *st = &derived;
  const tp_s8_pool g = st->g;
  const int8_t *restrict in = (const int8_t *)call->args[MP_INPUT]->as.tensor->data;
  int8_t *restrict o = (int8_t *)call->args[MP_OUT]->as.tensor->data;
  const uint32_t c = (uint32_t)g.c;
  const int8_t lo = (int8_t)st->lo, hi = (int8_t)st->hi;
  for (int32_t n = 0; n < g.n; n++, in += (uint32_t)g.ih * (uint32_t)g.iw * c) {
    for (int32_t oy = 0; oy < g.oh; oy++) {
      int32_t y0, y1;
      window(oy, g.sh, g.ph, g.kh, g.ih, &y0, &y1);
      for (int32_t ox = 0; ox < g.ow; ox++, o += c) {
        int32_t x0, x1;
        window(ox, g.sw, g.pw, g.kw, g.iw, &x0, &x1);
        for (uint32_t k = 0; k < c; k++) {
          o[k] = lo;
        }
        for (int32_t y = y0; y < y1; y++) {
          const int8_t *restrict px = in + ((uint32_t)y * (uint32_t)g.iw + (uint32_t)x0) * c;
          for (int32_t x = x0; x < x1; x++, px += c) {
            for (uint32_t k = 0; k < c; k++) {
              o[k] = max_s8(o[k], px[k]);
            }
          }
        }
        for (uint32_t k = 0; k < c; k++) {
          o[k] = o[k] < hi ? o[k] : hi;
        }
      }
    }
  }
  return TP_OK;
}

/* NHWC, 2x2 windows at stride 2 without padding: four rows of channels per out pixel. Out rows
 * [r0, r1), counted over the batch: out row r (image r / oh, row r % oh) reads input rows
 * 2 (r % oh) and 2 (r % oh) + 1. */
typedef struct max_rows_job {
  const tp_s8_max_pool_state *st;
  const int8_t *in;
  int8_t *out;
} max_rows_job;

static void max_pool_nhwc_2x2_rows(const void *ctx, int32_t r0, int32_t r1, void *scratch) {
  (void)scratch;
  const max_rows_job *job = ctx;
  const tp_s8_pool g = job->st->g;
  const uint32_t c = (uint32_t)g.c;
  const uint32_t row = (uint32_t)g.iw * c;
  const uint32_t cols = (uint32_t)g.ow;
  const int32_t lo = job->st->lo, hi = job->st->hi;
  const uint32_t image = (uint32_t)g.ih * row;
  int8_t *restrict o = job->out + (uint32_t)r0 * cols * c;
  for (uint32_t r = (uint32_t)r0; r < (uint32_t)r1; r++) {
    const uint32_t n = r / (uint32_t)g.oh, oy = r % (uint32_t)g.oh;
    const int8_t *restrict a = job->in + n * image + 2u * oy * row;
    const int8_t *restrict b = a + row;
    for (uint32_t ox = 0; ox < cols; ox++, a += 2u * c, b += 2u * c, o += c) {
      for (uint32_t k = 0; k < c; k++) {
        const int8_t m = max_s8(max_s8(a[k], a[k + c]), max_s8(b[k], b[k + c]));
        o[k] = clamp_s8(m, lo, hi);
      }
    }
  }
}

/* Each out element costs about as much as this many multiply-adds of a convolution. */
#define MAX_2X2_ELEMENT_WORK 8u

/* The out rows split over two cores when a worker is installed (tinypte/two_cores_hand_over.h). */
tp_status tp_s8_max_pool_nhwc_2x2_run(const tp_kernel_call *call) {
  tp_s8_max_pool_state st;
  max_pool_derive(call, &st);
  const max_rows_job job = {&st, pool_in(call), pool_out(call, MP_OUT)};
  const int32_t rows = st.g.n * st.g.oh;
  const uint64_t work = (uint64_t)rows * (uint64_t)st.g.ow * (uint64_t)st.g.c * MAX_2X2_ELEMENT_WORK;
  return tp_two_cores_run(max_pool_nhwc_2x2_rows, &job, rows, 1, work, 0, NULL);
}

/* NCHW: one plane at a time (pool_nchw). */
__attribute__((always_inline)) static inline void max_pool_nchw(const tp_kernel_call *call,
                                                               const tp_s8_max_pool_state *st) {
  pool_nchw(call, MP_OUT, &st->g, false, st->lo, st->hi, 0.0f, 0);
}

/* NCHW, 2x2 windows at stride 2 without padding. */
__attribute__((always_inline)) static inline void max_pool_nchw_2x2(const tp_kernel_call *call,
                                                                   const tp_s8_max_pool_state *st) {
  const tp_s8_pool g = st->g;
  const int8_t *restrict in = (const int8_t *)call->args[MP_INPUT]->as.tensor->data;
  int8_t *restrict o = (int8_t *)call->args[MP_OUT]->as.tensor->data;
  const uint32_t planes = (uint32_t)g.n * (uint32_t)g.c;
  const uint32_t w = (uint32_t)g.iw;
  const uint32_t plane = (uint32_t)g.ih * w;
  const uint32_t oh = (uint32_t)g.oh, ow = (uint32_t)g.ow;
  const int32_t lo = st->lo, hi = st->hi;
  for (uint32_t pl = 0; pl < planes; pl++, in += plane) {
    for (uint32_t oy = 0; oy < oh; oy++) {
      const int8_t *restrict a = in + 2u * oy * w;
      const int8_t *restrict b = a + w;
      for (uint32_t ox = 0; ox < ow; ox++, a += 2, b += 2) {
        const int8_t m = max_s8(max_s8(a[0], a[1]), max_s8(b[0], b[1]));
        *o++ = clamp_s8(m, lo, hi);
      }
    }
  }
}

/* A max pooling's run: its state derived from the call, then `routine` (inlined: a constant). */
__attribute__((always_inline)) static inline tp_status max_pool_run(
    const tp_kernel_call *call, void (*routine)(const tp_kernel_call *, const tp_s8_max_pool_state *)) {
  tp_s8_max_pool_state st;
  max_pool_derive(call, &st);
  routine(call, &st);
  return TP_OK;
}

tp_status tp_s8_max_pool_nchw_run(const tp_kernel_call *call) { return max_pool_run(call, max_pool_nchw); }
tp_status tp_s8_max_pool_nchw_2x2_run(const tp_kernel_call *call) { return max_pool_run(call, max_pool_nchw_2x2); }

/* --- Average pool ------------------------------------------------------------------------- */

/* The reference's scale, multiplier * 2^shift / 2^31, is exact in double; torch rounds it to
 * float32 for float32 tensors. Rounding the multiplier and then scaling by powers of two is the
 * same (the result stays far from float32's subnormals). */
static float avg_scale(int32_t multiplier, int32_t shift) {
  float scale = (float)multiplier;
  for (int32_t e = shift - 31; e < 0; e++) {
    scale *= 0.5f;
  }
  for (int32_t e = shift - 31; e > 0; e--) {
    scale *= 2.0f;
  }
  return scale;
}

static void avg_pool_derive(const tp_kernel_call *call, tp_s8_avg_pool_state *st) {
  derive_geometry(call, AP_OUT, &st->g);
  st->scale = avg_scale((int32_t)call->args[AP_MULT]->as.i, (int32_t)call->args[AP_SHIFT]->as.i);
  st->zero_point = (int32_t)call->args[AP_ZP]->as.i;
}

tp_status tp_s8_avg_pool_prepare(const tp_kernel_call *call, tp_s8_pool_call *state, bool nhwc) {
  tp_s8_pool g;
  tp_tensor *in, *out;
  int32_t zero_point, multiplier, shift;
  bool ceil_mode;
  TP_CHECK_ARGS(call->nargs == AP_NARGS);
  TP_TRY(pool_tensors(call, AP_OUT, &in, &out));
  TP_TRY(tp_arg_unused_scratch(call->args, call->nargs, AP_SCRATCH));
  TP_TRY(tp_arg_bool(call->args, call->nargs, AP_CEIL, &ceil_mode));
  TP_TRY(tp_arg_i32(call->args, call->nargs, AP_ZP, &zero_point));
  TP_TRY(tp_arg_i32(call->args, call->nargs, AP_MULT, &multiplier));
  TP_TRY(tp_arg_i32(call->args, call->nargs, AP_SHIFT, &shift));
  /* A scale > 0 (quantize_multiplier_aot of the input scale); 0 would divide by zero. */
  TP_CHECK_ARGS(zero_point >= -128 && zero_point <= 127 && multiplier > 0 && tp_shift_ok(shift));
  TP_TRY(pool_geometry(call, in, out, nhwc, ceil_mode, &g));
  state->nhwc = nhwc;
  return TP_OK;
}

/* round_half_even(avg / scale) + zero_point, saturated: quantize_per_tensor_cmsis. |avg / scale|
 * stays near |q - zero_point| <= 255, far below 2^22, where adding and subtracting 1.5 * 2^23
 * rounds to an integer half to even (as rintf, without the library call). */
static inline int8_t avg_quantize(float sum, int32_t count, float scale, int32_t zero_point) {
  const float v = sum / (float)count / scale;
  const float r = (v + 12582912.0f) - 12582912.0f;
  const int32_t q = (int32_t)r + zero_point;
  return (int8_t)(q < -128 ? -128 : (q > 127 ? 127 : q));
}

/* Channels summed together in the NHWC routine (each channel in the reference's order). */
#define AVG_BLOCK 8

/* A block of AVG_BLOCK channels of one out pixel, its sums in registers (each channel summed
 * in the reference's order, as the loop below): in points at the block's first channel. */
static void avg_block8(const int8_t *restrict in, const tp_s8_pool *g, uint32_t c, int32_t y0, int32_t y1,
                       int32_t x0, int32_t x1, float scale, int32_t zp, int32_t count, int8_t *restrict o) {
  float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f, a4 = 0.0f, a5 = 0.0f, a6 = 0.0f, a7 = 0.0f;
  for (int32_t y = y0; y < y1; y++) {
    const int8_t *restrict px = in + ((uint32_t)y * (uint32_t)g->iw + (uint32_t)x0) * c;
    for (int32_t x = x0; x < x1; x++, px += c) {
      a0 += (float)(px[0] - zp) * scale;
      a1 += (float)(px[1] - zp) * scale;
      a2 += (float)(px[2] - zp) * scale;
      a3 += (float)(px[3] - zp) * scale;
      a4 += (float)(px[4] - zp) * scale;
      a5 += (float)(px[5] - zp) * scale;
      a6 += (float)(px[6] - zp) * scale;
      a7 += (float)(px[7] - zp) * scale;
    }
  }
  o[0] = avg_quantize(a0, count, scale, zp);
  o[1] = avg_quantize(a1, count, scale, zp);
  o[2] = avg_quantize(a2, count, scale, zp);
  o[3] = avg_quantize(a3, count, scale, zp);
  o[4] = avg_quantize(a4, count, scale, zp);
  o[5] = avg_quantize(a5, count, scale, zp);
  o[6] = avg_quantize(a6, count, scale, zp);
  o[7] = avg_quantize(a7, count, scale, zp);
}

/* An NHWC average pooling's part: out rows [r0, r1) (counted over the batch: row r is image
 * r / oh, out row r % oh) and of each out pixel the channels [c0, c1). */
typedef struct avg_part {
  const tp_s8_avg_pool_state *st;
  const int8_t *in;
  int8_t *out;
} avg_part;

static void avg_pool_nhwc_block(const avg_part *job, int32_t r0, int32_t r1, uint32_t c0, uint32_t c1) {
  const tp_s8_pool g = job->st->g;
  const uint32_t c = (uint32_t)g.c;
  const float scale = job->st->scale;
  const int32_t zp = job->st->zero_point;
  int8_t *restrict o = job->out + (uint32_t)r0 * (uint32_t)g.ow * c;
  for (int32_t r = r0; r < r1; r++) {
    const int32_t oy = r % g.oh;
    const int8_t *restrict in = job->in + (uint32_t)(r / g.oh) * (uint32_t)g.ih * (uint32_t)g.iw * c;
    int32_t y0, y1;
    window(oy, g.sh, g.ph, g.kh, g.ih, &y0, &y1);
    for (int32_t ox = 0; ox < g.ow; ox++, o += c) {
      int32_t x0, x1;
      window(ox, g.sw, g.pw, g.kw, g.iw, &x0, &x1);
      const int32_t count = (y1 - y0) * (x1 - x0);
      uint32_t k0 = c0;
      for (; k0 + AVG_BLOCK <= c1; k0 += AVG_BLOCK) {
        avg_block8(in + k0, &g, c, y0, y1, x0, x1, scale, zp, count, o + k0);
      }
      for (; k0 < c1; k0 += AVG_BLOCK) {
        const uint32_t nb = c1 - k0 < AVG_BLOCK ? c1 - k0 : AVG_BLOCK;
        float acc[AVG_BLOCK] = {0};
        for (int32_t y = y0; y < y1; y++) {
          const int8_t *restrict px = in + ((uint32_t)y * (uint32_t)g.iw + (uint32_t)x0) * c + k0;
          for (int32_t x = x0; x < x1; x++, px += c) {
            for (uint32_t k = 0; k < nb; k++) {
              acc[k] += (float)(px[k] - zp) * scale;
            }
          }
        }
        for (uint32_t k = 0; k < nb; k++) {
          o[k0 + k] = avg_quantize(acc[k], count, scale, zp);
        }
      }
    }
  }
}

/* Out rows [r0, r1), every channel. */
static void avg_pool_nhwc_rows(const void *ctx, int32_t r0, int32_t r1, void *scratch) {
  (void)scratch;
  const avg_part *job = ctx;
  avg_pool_nhwc_block(job, r0, r1, 0, (uint32_t)job->st->g.c);
}

/* One out row (a global pooling): channels [c0, c1) of it. */
static void avg_pool_nhwc_channels(const void *ctx, int32_t c0, int32_t c1, void *scratch) {
  (void)scratch;
  avg_pool_nhwc_block(ctx, 0, 1, (uint32_t)c0, (uint32_t)c1);
}

/* Each element of a window costs about as much as this many multiply-adds of a convolution
 * (a float multiply-add after the subtraction and conversion). */
#define AVG_ELEMENT_WORK 3u

/* NHWC: the out rows (one row: its channels) split over two cores when a worker is installed
 * (tinypte/two_cores_hand_over.h). */
tp_status tp_s8_avg_pool_nhwc_run(const tp_kernel_call *call) {
  tp_s8_avg_pool_state st;
  avg_pool_derive(call, &st);
  const tp_s8_pool *g = &st.g;
  const avg_part job = {&st, pool_in(call), pool_out(call, AP_OUT)};
  const int32_t rows = g->n * g->oh;
  const uint64_t work = (uint64_t)rows * (uint64_t)g->ow * (uint64_t)g->c * (uint64_t)(g->kh * g->kw) * AVG_ELEMENT_WORK;
  if (rows == 1) { /* a global pooling: its channels, blocks of eight whole */
    return tp_two_cores_run(avg_pool_nhwc_channels, &job, g->c, AVG_BLOCK, work, 0, NULL);
  }
  return tp_two_cores_run(avg_pool_nhwc_rows, &job, rows, 1, work, 0, NULL);
}

tp_status tp_s8_avg_pool_nchw_run(const tp_kernel_call *call) {
  tp_s8_avg_pool_state st;
  avg_pool_derive(call, &st);
  pool_nchw(call, AP_OUT, &st.g, true, 0, 0, st.scale, st.zero_point);
  return TP_OK;
}

/* The NCHW loops of both poolings (declared above the max pool's): the windows' maxima or
 * averages. The in and out pointers are read here, not through pool_in and pool_out, so that
 * GCC keeps them restrict-qualified (it does not through an inlined function's result). */
static inline void pool_nchw(const tp_kernel_call *call, uint32_t out_index, const tp_s8_pool *geometry, bool avg,
                             int32_t lo, int32_t hi, float scale, int32_t zp) {
  const tp_s8_pool g = *geometry;
  const int8_t *restrict in = (const int8_t *)call->args[P_INPUT]->as.tensor->data;
  int8_t *restrict o = (int8_t *)call->args[out_index]->as.tensor->data;
  const uint32_t planes = (uint32_t)g.n * (uint32_t)g.c;
  const uint32_t plane = (uint32_t)g.ih * (uint32_t)g.iw;
  for (uint32_t pl = 0; pl < planes; pl++, in += plane) {
    for (int32_t oy = 0; oy < g.oh; oy++) {
      int32_t y0, y1;
      window(oy, g.sh, g.ph, g.kh, g.ih, &y0, &y1);
      for (int32_t ox = 0; ox < g.ow; ox++) {
        int32_t x0, x1;
        window(ox, g.sw, g.pw, g.kw, g.iw, &x0, &x1);
        int32_t m = lo;
        float acc = 0.0f;
        for (int32_t y = y0; y < y1; y++) {
          const int8_t *restrict px = in + (uint32_t)y * (uint32_t)g.iw;
          for (int32_t x = x0; x < x1; x++) {
            if (avg) {
              acc += (float)(px[x] - zp) * scale;
            } else {
              m = px[x] > m ? px[x] : m;
            }
          }
        }
        *o++ = avg ? avg_quantize(acc, (y1 - y0) * (x1 - x0), scale, zp) : (int8_t)(m < hi ? m : hi);
      }
    }
  }
}
