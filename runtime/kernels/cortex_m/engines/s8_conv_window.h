/* What the routines of the int8 convolutions share (s8_conv.c, and the fast paths
 * s8_conv_c.c, s8_conv_dsp.c, s8_conv_mve.c): which fast path this core has, where a
 * column's window lies, and the epilogue from an int32 sum to the int8 out byte. Internal to
 * runtime/kernels/cortex_m. */
#ifndef TINYPTE_KERNELS_CORTEX_M_ENGINES_S8_CONV_WINDOW_H
#define TINYPTE_KERNELS_CORTEX_M_ENGINES_S8_CONV_WINDOW_H

#include <string.h>

#include "cortex_m/engines/s8_conv.h"

/* The fast path, chosen at compile time from the core: Helium, else the DSP extension, else
 * portable C (s8_conv_c.c). */
#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
#include <arm_mve.h>
#define TP_S8_CONV_MVE 1
#elif defined(__ARM_FEATURE_DSP)
#include <arm_acle.h>
#define TP_S8_CONV_DSP 1
#endif

static inline int32_t round_up(int32_t v, int32_t m) { return (v + m - 1) / m * m; }

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

/* Whether a column's taps of a row are one run of kw Cin bytes inside the image (NHWC, no
 * horizontal dilation), and whether all its rows of taps lie inside: then its window is kh
 * such runs, read in place. */
static inline bool row_run_inside(const tp_s8_conv *st, column c) {
  return st->dil_w == 1 && c.x0 >= 0 && c.x0 + st->k_w <= st->in_w;
}
static inline bool column_inside(const tp_s8_conv *st, column c) {
  return c.y0 >= 0 && c.y0 + (st->k_h - 1) * st->dil_h < st->in_h && row_run_inside(st, c);
}

/* A depthwise call with one input channel (a first layer) as a convolution of Cout channels
 * over kh kw taps (the DSP and Helium routines): its weights transposed to OHWI at the start of
 * the scratch, each channel's taps zero-padded to kp (>= kh kw), and the convolution's scratch
 * after them; cs and dc describe that convolution (one_input_describe: the description alone,
 * for a routine that transposes the weights its own way). */
static inline void one_input_describe(const tp_s8_conv *st, const tp_s8_conv_data *d, int32_t kp, tp_s8_conv *cs,
                                      tp_s8_conv_data *dc) {
  const int32_t cout = st->out_c;
  int8_t *const wt = (int8_t *)d->scratch;
  *cs = *st;
  cs->depthwise = 0;
  cs->cin_g = 1;
  cs->cout_g = cout;
  cs->w_si = 1;
  cs->w_sx = 1;
  cs->w_sy = st->k_w;
  cs->w_so = kp;
  *dc = *d;
  dc->w = wt;
  dc->scratch = wt + round_up(cout * kp, 4);
}
static inline void one_input_as_conv(const tp_s8_conv *st, const tp_s8_conv_data *d, int32_t kp, tp_s8_conv *cs,
                                     tp_s8_conv_data *dc) {
  const int32_t kk = st->k_h * st->k_w, cout = st->out_c;
  int8_t *const wt = (int8_t *)d->scratch;
  for (int32_t oc = 0; oc < cout; oc++) {
    for (int32_t t = 0; t < kp; t++) {
      wt[oc * kp + t] = t < kk ? d->w[t * cout + oc] : 0;
    }
  }
  one_input_describe(st, d, kp, cs, dc);
}

/* Whether consecutive columns' windows are consecutive K-byte runs of the input (a 1x1
 * convolution, stride 1, no padding, NHWC pixels one after the other: whole rows one after the
 * other, or one row, maybe part of one (a split call's part, s8_conv_two_cores.c's cols), every out row
 * inside the input (a split call's rows may end in the bottom padding, tp_s8_conv_rows)):
 * columns pos..pos+3 are then K * 4 bytes from input pixel pos on. */
static inline bool pointwise_runs(const tp_s8_conv *st) {
  return st->k_h == 1 && st->k_w == 1 && st->stride_h == 1 && st->stride_w == 1 && st->pad_h == 0 &&
         st->pad_w == 0 && st->in_sx == st->in_c && st->out_w <= st->in_w && st->out_h <= st->in_h &&
         (st->out_h == 1 || (st->in_sy == st->in_w * st->in_c && st->out_w == st->in_w));
}

/* A word from any address (a byte at a time where unaligned words are not allowed). */
static inline uint32_t load32(const void *p) {
  uint32_t v;
  memcpy(&v, p, sizeof v);
  return v;
}

/* n bytes from src to dst a word at a time (the DSP and Helium cores allow unaligned words),
 * and n copies of the byte v: for the short runs of a window (a few taps of a few channels). */
static inline void copy_bytes(int8_t *dst, const int8_t *src, int32_t n) {
  int32_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const uint32_t v = load32(src + i);
    memcpy(dst + i, &v, sizeof v);
  }
  for (; i < n; i++) {
    dst[i] = src[i];
  }
}
static inline void fill_bytes(int8_t *dst, int8_t v, int32_t n) {
  const uint32_t v4 = (uint32_t)(uint8_t)v * 0x01010101u;
  int32_t i = 0;
  for (; i + 4 <= n; i += 4) {
    memcpy(dst + i, &v4, sizeof v4);
  }
  for (; i < n; i++) {
    dst[i] = v;
  }
}

/* The taps of a column that lie inside the image: rows [ky0, ky1) and columns [kx0, kx1). */
static inline int32_t first_tap(int32_t origin, int32_t dil) { return origin < 0 ? (-origin + dil - 1) / dil : 0; }
static inline int32_t end_tap(int32_t origin, int32_t size, int32_t k, int32_t dil) {
  const int32_t n = size - origin <= 0 ? 0 : (size - origin + dil - 1) / dil;
  return n < k ? n : k;
}

/* A 3 x 3 column's tap table (the depthwise routines with a depth multiplier of 1): each tap's
 * channel 0, row by row, or `pad` (a row of -input_offset bytes: its term is 0) for a tap
 * outside the image. Per call offsets_3x3 gives each tap's bytes from tap 0's; per out row
 * rows_3x3 its three input rows (NULL for a row outside; true when all three are inside); per
 * column column_taps_3x3 the table of the column whose left tap is at x0: tap 0 plus the
 * offsets when every tap is inside, else tap by tap. */
static inline void offsets_3x3(const tp_s8_conv *st, int32_t offs[9]) {
  for (int32_t t = 0; t < 9; t++) {
    offs[t] = t / 3 * st->in_sy * st->dil_h + t % 3 * st->in_sx * st->dil_w;
  }
}

static inline bool rows_3x3(const tp_s8_conv *st, const int8_t *in, int32_t y0, const int8_t *rows[3]) {
  for (int32_t ky = 0; ky < 3; ky++) {
    const int32_t iy = y0 + ky * st->dil_h;
    rows[ky] = iy >= 0 && iy < st->in_h ? in + iy * st->in_sy : NULL;
  }
  return rows[0] != NULL && rows[2] != NULL; /* the middle one then too */
}

static inline void column_taps_3x3(const tp_s8_conv *st, const int8_t *const rows[3], bool rows_in,
                                   const int32_t offs[9], int32_t x0, const int8_t *pad, const int8_t *taps[9]) {
  if (rows_in && x0 >= 0 && x0 + 2 * st->dil_w < st->in_w) {
    const int8_t *const x = rows[0] + x0 * st->in_sx;
    for (int32_t t = 0; t < 9; t++) {
      taps[t] = x + offs[t];
    }
    return;
  }
  for (int32_t kx = 0; kx < 3; kx++) {
    const int32_t ix = x0 + kx * st->dil_w;
    const bool col_in = ix >= 0 && ix < st->in_w;
    for (int32_t ky = 0; ky < 3; ky++) {
      taps[3 * ky + kx] = rows[ky] != NULL && col_in ? rows[ky] + ix * st->in_sx : pad;
    }
  }
}

/* The columns of one batch of a 3 x 3 convolution (the depthwise routines with a depth
 * multiplier of 1), row by row: for each, `y0` and `x0` are its top-left tap (maybe outside the
 * image) and `taps` its tap table (column_taps_3x3 over `in` with `offs` from offsets_3x3, `pad`
 * for the taps outside), the statements after them run, then `out` moves on by `step` bytes. A
 * macro, so that each routine's column loop is compiled with its own work in place (these are
 * the hot loops). */
#define TP_FOR_EACH_COLUMN_3X3(st, in, offs, pad, out, step, y0, x0, taps, ...)                \
  do {                                                                                          \
    for (int32_t oy_ = 0; oy_ < (st)->out_h; oy_++) {                                           \
      const int32_t y0 = oy_ * (st)->stride_h - (st)->pad_h;                                    \
      const int8_t *rows_[3];                                                                   \
      const bool rows_in_ = rows_3x3((st), (in), y0, rows_);                                    \
      for (int32_t ox_ = 0; ox_ < (st)->out_w; ox_++, (out) += (step)) {                        \
        const int32_t x0 = ox_ * (st)->stride_w - (st)->pad_w;                                  \
        column_taps_3x3((st), rows_, rows_in_, (offs), x0, (pad), (taps));                     \
        __VA_ARGS__                                                                             \
      }                                                                                         \
    }                                                                                           \
  } while (0)

#if !defined(TP_S8_CONV_MVE)
/* ---- Portable C and DSP: int16 windows (input + offset, padding 0), two columns ---- */

/* Depthwise: for each input channel of a column its kh * kw taps (rounded up to even, the
 * last one 0), as x + input_offset (0 for padding). */
static inline void im2col_dw_s16(const tp_s8_conv *st, const int8_t *in, column c, int16_t *col) {
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

#endif

#if defined(TP_S8_CONV_MVE)
/** Whether every out channel shifts right (and no multiplier is INT32_MIN): the vector
 *  requantization (VQRDMULH, VRSHL) applies (s8_conv_mve.c, s8_conv_mve_dw1.c). Here, below both
 *  routines, so that neither file calls into the other's. */
static inline bool tp_s8_conv_shifts_right(const tp_s8_conv *st, const tp_s8_conv_data *d) {
  bool quick = true;
  for (int32_t c = 0; c < st->out_c; c++) {
    quick = quick && d->shift[c] < 0 && d->mult[c] != INT32_MIN;
  }
  return quick;
}

/** Depthwise with a depth multiplier of 1 (s8_conv_mve_dw1.c). */
void tp_s8_conv_mve_depthwise1(const tp_s8_conv *st, const tp_s8_conv_data *d);
#endif

#if defined(TP_S8_CONV_DSP)
/* ---- DSP (s8_conv_dsp.c, s8_conv_dsp_dw1.c) ---- */

/* SXTB16 of v rotated right by 8: bytes 1 and 3 (GCC's ACLE has no __sxtb16_ror and does
 * not fold a rotation into SXTB16). */
static inline int16x2_t sxtb16_ror8(uint32_t v) {
  int16x2_t r;
  __asm__("sxtb16 %0, %1, ror #8" : "=r"(r) : "r"(v));
  return r;
}

/* The quick epilogue of the assembly routines, from a record of three words per out channel
 * (rq_record: multiplier, rounding term with the out zero point folded in, right shift r) and
 * a doubled sum (the operand SMMULR wants): SMMULR, round half away from zero (add the sign),
 * add the rounding term, shift, saturate to int8; the routines take calls whose activation
 * range is all of int8 and whose shifts fold (rq_folds); others take finish_e.
 *
 * Folding: (h + s + 2^(r-1) + off 2^r) >> r = ((h + s + 2^(r-1)) >> r) + off exactly, as long as
 * the sum fits int32: |h| < 2^29 (the quick epilogue's bound), |off| <= 128, so r <= 23 keeps it
 * below 2^29 + 2^22 + 2^30. */
static inline void rq_record(const tp_s8_conv_data *d, int32_t c, int32_t out_off, uint32_t r[3]) {
  const int32_t right = -d->shift[c];
  r[0] = (uint32_t)d->mult[c];
  r[1] = (1u << (right - 1)) + ((uint32_t)out_off << right);
  r[2] = (uint32_t)right;
}

/* Every out channel's right shift folds the out zero point into its rounding term (rq_record),
 * and the epilogue's clamp is all of int8. */
static inline bool rq_folds(const tp_s8_conv_data *d, int32_t cout, const epilogue *e) {
  bool folds = e->lo == -128 && e->hi == 127;
  for (int32_t c = 0; c < cout; c++) {
    folds = folds && d->shift[c] >= -23;
  }
  return folds;
}

/** Depthwise with a depth multiplier of 1 and more than one channel, 3 x 3, the quick epilogue
 *  clamped to all of int8 (s8_conv_dsp_dw1.c); false (nothing done) for other calls. */
bool tp_s8_conv_dsp_depthwise1(const tp_s8_conv *st, const tp_s8_conv_data *d);
#endif

#endif /* TINYPTE_KERNELS_CORTEX_M_ENGINES_S8_CONV_WINDOW_H */
