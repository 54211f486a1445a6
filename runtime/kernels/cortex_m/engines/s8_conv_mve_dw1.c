/* The Helium routine (Cortex-M55) of an _nhwc depthwise convolution with a depth multiplier of
 * 1, in place (no window): out channel c reads input channel c only.
 *
 * A column whose taps all lie inside the image, with the vector requantization (every shift
 * right), takes eight channels a step: each tap's eight input bytes and eight weights widened
 * to int16 (VLDRB.S16), their products into two int32 vectors by VMULLB/VMULLT (the even and
 * the odd channels), six instructions for eight multiply-accumulates; the raw inputs are
 * multiplied, each channel starting from bias + input_offset * (sum of its weights), and the
 * two requantized vectors are put back in channel order by VMOVNB/VMOVNT before an 8-byte
 * store. Per call, a record per group of eight channels (start values, multipliers, shifts,
 * split even/odd; made with gathers, the even and the odd channels four lanes each) is written
 * to the scratch: 12 bytes a channel. A 3 x 3 column reads its taps, two groups at a time
 * (sixteen channels a tap pointer),
 * through a table of their addresses, a tap outside the image pointing at a row of
 * -input_offset bytes after the records (its term is then 0, so the start values hold); a
 * border column of another filter is first copied into a window of kh x kw taps there (kh kw
 * bytes a channel). Channels past the
 * groups of eight, and every channel when a shift is not a right one, take four channels a
 * step, int32 lanes, over the taps inside the image: (x + input_offset) * w. Bit-exact with the
 * portable routine (runtime/kernels/tests/s8_conv_paths.c). */
#include "cortex_m/engines/s8_conv_window.h"

/* The loops are where an int8 model's time goes: compiled for speed whatever the build's level
 * (s8_conv.c says why). */
#pragma GCC optimize("O2", "no-tree-loop-distribute-patterns")

#if defined(TP_S8_CONV_MVE)

enum { REC_WORDS = 24 }; /* start_even[4], start_odd[4], mult_even[4], mult_odd[4], shift_even[4], shift_odd[4] */

/* The records of the groups of eight channels, the even and the odd channels of a group four
 * lanes each (gathered two apart): start value bias + input_offset * (sum of the channel's
 * weights over its kh kw taps), modulo 2^32 as the portable routine's sums. */
static void records_of(const tp_s8_conv *st, const tp_s8_conv_data *d, int32_t c8, int32_t *rec) {
  const int32_t kk = st->k_h * st->k_w, C = st->out_c, off = st->input_offset;
  const uint32x4_t two = vidupq_n_u32(0, 2); /* 0, 2, 4, 6 */
  for (int32_t c = 0; c < c8; c += 8, rec += REC_WORDS) {
    for (int32_t odd = 0; odd < 2; odd++) {
      const int8_t *w = d->w + c + odd;
      int32x4_t sum = vdupq_n_s32(0);
      for (int32_t t = 0; t < kk; t++, w += C) {
        sum = vaddq_s32(sum, vldrbq_gather_offset_s32(w, two));
      }
      const int32x4_t b = d->bias != NULL ? vldrwq_gather_shifted_offset_s32(d->bias + c + odd, two) : vdupq_n_s32(0);
      vstrwq_s32(rec + 4 * odd, vmlaq_n_s32(b, sum, off));
      vstrwq_s32(rec + 8 + 4 * odd, vldrwq_gather_shifted_offset_s32(d->mult + c + odd, two));
      vstrwq_s32(rec + 16 + 4 * odd, vldrwq_gather_shifted_offset_s32(d->shift + c + odd, two));
    }
  }
}

/* (acc * mult + 2^30) >> 31 by VQRDMULH, then a right shift rounding half away from zero (VRSHL
 * rounds half up: negative values move down by one first), the out offset and the clamp. */
static inline int32x4_t requantize4(int32x4_t acc, int32x4_t mult, int32x4_t shift, const tp_s8_conv *st) {
  int32x4_t v = vqrdmulhq_s32(acc, mult);
  v = vrshlq_s32(vaddq_s32(v, vshrq_n_s32(v, 31)), shift);
  v = vaddq_n_s32(v, st->output_offset);
  return vminq_s32(vmaxq_s32(v, vdupq_n_s32(st->act_min)), vdupq_n_s32(st->act_max));
}

/* Eight channels of an inside column: `x` the group's input at the top-left tap, `w` its
 * weights at tap 0, taps `sx` bytes apart (weights C apart), rows `sy` (weights kw C). */
__attribute__((always_inline)) static inline void group8(const tp_s8_conv *st, const int32_t *r, const int8_t *x,
                                                         const int8_t *w, int32_t sx, int32_t sy, int32_t kh,
                                                         int32_t kw, int8_t *out) {
  const int32_t C = st->out_c;
  int32x4_t even = vldrwq_s32(r), odd = vldrwq_s32(r + 4);
  for (int32_t ky = 0; ky < kh; ky++, x += sy, w += kw * C) {
    const int8_t *xp = x, *wp = w;
    for (int32_t kx = 0; kx < kw; kx++, xp += sx, wp += C) {
      const int16x8_t xv = vldrbq_s16(xp), wv = vldrbq_s16(wp);
      even = vaddq_s32(even, vmullbq_int_s16(xv, wv));
      odd = vaddq_s32(odd, vmulltq_int_s16(xv, wv));
    }
  }
  const int32x4_t qe = requantize4(even, vldrwq_s32(r + 8), vldrwq_s32(r + 16), st);
  const int32x4_t qo = requantize4(odd, vldrwq_s32(r + 12), vldrwq_s32(r + 20), st);
  vstrbq_s16(out, vmovntq_s32(vmovnbq_s32(vdupq_n_s16(0), qe), qo));
}

/* Channels [oc0, C) of a column, four a step (int32 lanes, tail-predicated), over the taps
 * [ky0, ky1) x [kx0, kx1) inside the image; x00 and w00 are tap (ky0, kx0) of channel 0. */
static void channels4(const tp_s8_conv *st, const tp_s8_conv_data *d, bool quick, int32_t oc0, const int8_t *x00,
                      const int8_t *w00, int32_t ky0, int32_t ky1, int32_t kx0, int32_t kx1, int8_t *out) {
  const int32_t C = st->out_c, off = st->input_offset, w_row = st->k_w * C;
  const int32_t sy = st->in_sy * st->dil_h, sx = st->in_sx * st->dil_w;
  for (int32_t oc = oc0; oc < C; oc += 4) {
    const mve_pred16_t p = vctp32q((uint32_t)(C - oc));
    int32x4_t acc = d->bias != NULL ? vldrwq_z_s32(d->bias + oc, p) : vdupq_n_s32(0);
    const int8_t *xr = x00 + oc, *wr = w00 + oc;
    for (int32_t ky = ky0; ky < ky1; ky++, xr += sy, wr += w_row) {
      const int8_t *xp = xr, *wp = wr;
      for (int32_t kx = kx0; kx < kx1; kx++, xp += sx, wp += C) {
        acc = vaddq_s32(acc, vmulq_s32(vaddq_n_s32(vldrbq_z_s32(xp, p), off), vldrbq_z_s32(wp, p)));
      }
    }
    if (quick) {
      const int32x4_t q = requantize4(acc, vldrwq_z_s32(d->mult + oc, p), vldrwq_z_s32(d->shift + oc, p), st);
      vstrbq_p_s32(out + oc, q, p);
    } else {
      int32_t a[4];
      vstrwq_s32(a, acc);
      for (int32_t j = 0; j < 4 && oc + j < C; j++) {
        out[oc + j] = finish(st, (uint32_t)a[j], d->mult[oc + j], d->shift[oc + j]);
      }
    }
  }
}

/* The window of a border column for its first c8 channels: for each tap (ky, kx) its bytes, or
 * -input_offset where the tap lies outside (its term (x + offset) . w is then 0, so the start
 * values hold); taps C bytes apart, rows kw C. */
static void window_of(const tp_s8_conv *st, const int8_t *in, int32_t y0, int32_t x0, int32_t c8, int8_t *win) {
  const int32_t C = st->out_c;
  const int8x16_t pad = vdupq_n_s8((int8_t)-st->input_offset);
  for (int32_t ky = 0; ky < st->k_h; ky++) {
    for (int32_t kx = 0; kx < st->k_w; kx++, win += C) {
      const int8_t *src = tap(st, in, y0 + ky * st->dil_h, x0 + kx * st->dil_w);
      for (int32_t i = 0; i < c8; i += 16) {
        const mve_pred16_t p = vctp8q((uint32_t)(c8 - i));
        vstrbq_p_s8(win + i, src != NULL ? vldrbq_z_s8(src + i, p) : pad, p);
      }
    }
  }
}

/* Every column of one batch; `c8` channels in groups of eight (0 when the requantization is not
 * the vector one), read in place for inside columns and from `win` for border ones. */
__attribute__((always_inline)) static inline void columns(const tp_s8_conv *st, const tp_s8_conv_data *d, bool quick,
                                                          int32_t c8, const int32_t *rec, int8_t *win,
                                                          const int8_t *in, int8_t *out, int32_t kh, int32_t kw) {
  const int32_t C = st->out_c, w_row = kw * C;
  const int32_t sy = st->in_sy * st->dil_h, sx = st->in_sx * st->dil_w;
  for (int32_t oy = 0; oy < st->out_h; oy++) {
    const int32_t y0 = oy * st->stride_h - st->pad_h;
    const int32_t ky0 = first_tap(y0, st->dil_h), ky1 = end_tap(y0, st->in_h, kh, st->dil_h);
    for (int32_t ox = 0; ox < st->out_w; ox++, out += C) {
      const int32_t x0 = ox * st->stride_w - st->pad_w;
      const int32_t kx0 = first_tap(x0, st->dil_w), kx1 = end_tap(x0, st->in_w, kw, st->dil_w);
      const int8_t *x00 = in + (y0 + ky0 * st->dil_h) * st->in_sy + (x0 + kx0 * st->dil_w) * st->in_sx;
      const int8_t *w00 = d->w + ky0 * w_row + kx0 * C;
      const bool inside = ky0 == 0 && ky1 == kh && kx0 == 0 && kx1 == kw;
      const int8_t *g = x00;
      int32_t gsx = sx, gsy = sy;
      if (!inside && c8 > 0) {
        window_of(st, in, y0, x0, c8, win);
        g = win;
        gsx = C;
        gsy = kw * C;
      }
      for (int32_t oc = 0; oc < c8; oc += 8) {
        group8(st, rec + oc / 8 * REC_WORDS, g + oc, d->w + oc, gsx, gsy, kh, kw, out + oc);
      }
      if (c8 < C) {
        channels4(st, d, quick, c8, x00, w00, ky0, ky1, kx0, kx1, out);
      }
    }
  }
}

/* Eight channels of a 3 x 3 column through its tap table (each tap's channel 0, or the padding
 * row): group8 without strides, so that a border column needs no window. */
__attribute__((always_inline)) static inline void group8_taps(const tp_s8_conv *st, const int32_t *r,
                                                              const int8_t *const taps[9], int32_t oc,
                                                              const int8_t *w, int8_t *out) {
  const int32_t C = st->out_c;
  int32x4_t even = vldrwq_s32(r), odd = vldrwq_s32(r + 4);
  for (int32_t t = 0; t < 9; t++, w += C) {
    const int16x8_t xv = vldrbq_s16(taps[t] + oc), wv = vldrbq_s16(w);
    even = vaddq_s32(even, vmullbq_int_s16(xv, wv));
    odd = vaddq_s32(odd, vmulltq_int_s16(xv, wv));
  }
  const int32x4_t qe = requantize4(even, vldrwq_s32(r + 8), vldrwq_s32(r + 16), st);
  const int32x4_t qo = requantize4(odd, vldrwq_s32(r + 12), vldrwq_s32(r + 20), st);
  vstrbq_s16(out, vmovntq_s32(vmovnbq_s32(vdupq_n_s16(0), qe), qo));
}

/* Two groups of eight channels (oc, oc + 8) of a 3 x 3 column through its tap table: group8_taps
 * twice over, each tap's pointer loaded once for both and the loop's overhead shared. */
__attribute__((always_inline)) static inline void group16_taps(const tp_s8_conv *st, const int32_t *r,
                                                               const int8_t *const taps[9], int32_t oc,
                                                               const int8_t *w, int8_t *out) {
  const int32_t C = st->out_c;
  int32x4_t even0 = vldrwq_s32(r), odd0 = vldrwq_s32(r + 4);
  int32x4_t even1 = vldrwq_s32(r + REC_WORDS), odd1 = vldrwq_s32(r + REC_WORDS + 4);
  for (int32_t t = 0; t < 9; t++, w += C) {
    const int8_t *const x = taps[t] + oc;
    const int16x8_t x0 = vldrbq_s16(x), w0 = vldrbq_s16(w);
    even0 = vaddq_s32(even0, vmullbq_int_s16(x0, w0));
    odd0 = vaddq_s32(odd0, vmulltq_int_s16(x0, w0));
    const int16x8_t x1 = vldrbq_s16(x + 8), w1 = vldrbq_s16(w + 8);
    even1 = vaddq_s32(even1, vmullbq_int_s16(x1, w1));
    odd1 = vaddq_s32(odd1, vmulltq_int_s16(x1, w1));
  }
  const int32x4_t qe0 = requantize4(even0, vldrwq_s32(r + 8), vldrwq_s32(r + 16), st);
  const int32x4_t qo0 = requantize4(odd0, vldrwq_s32(r + 12), vldrwq_s32(r + 20), st);
  vstrbq_s16(out, vmovntq_s32(vmovnbq_s32(vdupq_n_s16(0), qe0), qo0));
  r += REC_WORDS;
  const int32x4_t qe1 = requantize4(even1, vldrwq_s32(r + 8), vldrwq_s32(r + 16), st);
  const int32x4_t qo1 = requantize4(odd1, vldrwq_s32(r + 12), vldrwq_s32(r + 20), st);
  vstrbq_s16(out + 8, vmovntq_s32(vmovnbq_s32(vdupq_n_s16(0), qe1), qo1));
}

/* Every column of one batch, 3 x 3: the groups of eight read the input in place through the
 * column's tap table (fixed offsets from its first tap when every tap is inside; else a tap
 * outside the image points at `pad_row`, C bytes of -input_offset: its term is 0); the other
 * channels take channels4 over the taps inside. */
__attribute__((noinline)) static void columns_3x3(const tp_s8_conv *st, const tp_s8_conv_data *d, bool quick,
                                                  int32_t c8, const int32_t *rec, const int8_t *pad_row,
                                                  const int8_t *in, int8_t *out) {
  const int32_t C = st->out_c, w_row = 3 * C;
  int32_t offs[9];
  offsets_3x3(st, offs);
  const int8_t *taps[9];
  TP_FOR_EACH_COLUMN_3X3(st, in, offs, pad_row, out, C, y0, x0, taps, {
    int32_t oc = 0;
    for (; oc + 16 <= c8; oc += 16) {
      group16_taps(st, rec + oc / 8 * REC_WORDS, taps, oc, d->w + oc, out + oc);
    }
    if (oc < c8) {
      group8_taps(st, rec + oc / 8 * REC_WORDS, taps, oc, d->w + oc, out + oc);
    }
    if (c8 < C) {
      const int32_t ky0 = first_tap(y0, st->dil_h), ky1 = end_tap(y0, st->in_h, 3, st->dil_h);
      const int32_t kx0 = first_tap(x0, st->dil_w), kx1 = end_tap(x0, st->in_w, 3, st->dil_w);
      const int8_t *x00 = in + (y0 + ky0 * st->dil_h) * st->in_sy + (x0 + kx0 * st->dil_w) * st->in_sx;
      channels4(st, d, quick, c8, x00, d->w + ky0 * w_row + kx0 * C, ky0, ky1, kx0, kx1, out);
    }
  });
}

__attribute__((noinline)) static void columns_any(const tp_s8_conv *st, const tp_s8_conv_data *d, bool quick,
                                                  int32_t c8, const int32_t *rec, int8_t *win, const int8_t *in,
                                                  int8_t *out) {
  columns(st, d, quick, c8, rec, win, in, out, st->k_h, st->k_w);
}

void tp_s8_conv_mve_depthwise1(const tp_s8_conv *st, const tp_s8_conv_data *d) {
  const bool quick = tp_s8_conv_shifts_right(st, d);
  const int32_t c8 = quick ? st->out_c & ~7 : 0;
  int32_t *const rec = (int32_t *)d->scratch;
  int8_t *const win = (int8_t *)(rec + c8 / 8 * REC_WORDS); /* a border column's window */
  if (!st->prepared) { /* else an earlier band of this call made them (s8_conv.h) */
    records_of(st, d, c8, rec);
  }
  for (int32_t b = 0; b < st->batches; b++) {
    const int8_t *in = d->in + b * st->in_sn;
    int8_t *out = d->out + b * st->out_sn;
    if (st->k_h == 3 && st->k_w == 3) {
      const int8x16_t pad = vdupq_n_s8((int8_t)-st->input_offset);
      for (int32_t c = 0; c < c8; c += 16) { /* the padding row (the window's place) */
        vstrbq_p_s8(win + c, pad, vctp8q((uint32_t)(c8 - c)));
      }
      columns_3x3(st, d, quick, c8, rec, win, in, out);
    } else {
      columns_any(st, d, quick, c8, rec, win, in, out);
    }
  }
}

#endif
