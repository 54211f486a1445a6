/* The fast routines of the _nhwc int8 convolutions on cores with the DSP extension (Armv7E-M
 * and Armv8-M Mainline: Cortex-M4/M7/M33): int16 windows (the inputs, padding -input_offset,
 * the offset folded into each channel's start value) of two columns (output positions), and
 * for each pair of out channels a 2 x 2 block of sums by SMLAD, two int16 products per
 * instruction, each block requantized as soon as it is done (depth multiplier 1 depthwise:
 * s8_conv_dsp_dw1.c).
 *
 * The weights stay int8 in the program: SXTB16 of a weight word gives bytes (0, 2) and of it
 * rotated by 8 bytes (1, 3), so the windows are stored in that order (window_of). */
#include "cortex_m/engines/s8_conv_window.h"

/* The convolution loops are where an int8 model's time goes: at -Os GCC keeps their sums and
 * pointers on the stack (every step loads and stores them), so this file is compiled for
 * speed whatever the build's level; -O2 would also turn zero-filling loops into memset calls,
 * which cost more than the few stores they replace. */
#pragma GCC optimize("O2", "no-tree-loop-distribute-patterns")

#if defined(TP_S8_CONV_DSP)

/* The windows of two columns, interleaved for the 2 x 2 blocks: for each group of four window
 * values (x0, x1, x2, x3) of column 0 and (y0, y1, y2, y3) of column 1, the words
 * (x0, x2), (y0, y2), (x1, x3), (y1, y3) as int16 pairs: what SXTB16 of a weight word and of it
 * rotated by 8 multiply, the two columns side by side so that one pointer walks both. A
 * partial last group (K not a multiple of 4) keeps the same places for its values. */
static inline int32_t pair_index(int32_t k, int32_t j) {
  const int32_t r = k & 3;
  return 2 * ((k & ~3) + j + 2 * (r & 1)) + (r >> 1);
}

/* n groups of four inputs at src into a column's words (dst[0], dst[2] per group, 4 apart):
 * (x0, x2) by SXTB16, (x1, x3) by SXTB16 of the word rotated by 8, doubled when `dbl`. */
static inline void words_of(const int8_t *src, int32_t n, uint32_t *dst, bool dbl) {
  for (int32_t i = 0; i < n; i++, src += 4, dst += 4) {
    const uint32_t w = load32(src);
    int16x2_t e = __sxtb16((int8x4_t)w), o = sxtb16_ror8(w);
    if (dbl) {
      e = __sadd16(e, e);
      o = __sadd16(o, o);
    }
    dst[0] = (uint32_t)e;
    dst[2] = (uint32_t)o;
  }
}

/* Column j of the pair: the raw inputs x (the input offset is in each channel's start value:
 * (x + offset) . w = x . w + offset . sum(w)), -input_offset for padding (its term is then 0),
 * doubled when `dbl` (the quick epilogue's operand; |x| <= 128 and |offset| <= 128, so twice
 * either fits int16). For Cin a multiple of 4 a word of four inputs gives (x0, x2) by SXTB16
 * and (x1, x3) by SXTB16 of it rotated by 8; otherwise value by value. */
static void window_of(const tp_s8_conv *st, const int8_t *in, column c, uint32_t *pair, int32_t j, bool dbl,
                      int8_t *stage) {
  const int32_t cin = st->in_c, scale = dbl ? 2 : 1, pad = -st->input_offset * scale;
  const bool inside = st->dil_w == 1 && c.y0 >= 0 && c.y0 + (st->k_h - 1) * st->dil_h < st->in_h && c.x0 >= 0 &&
                      c.x0 + st->k_w - 1 < st->in_w;
  if (inside) {
    /* Every tap inside, a row of taps one run of kw Cin bytes: with Cin a multiple of 4 the
     * runs are read in place, else gathered into `stage` first; then four values a step. */
    const int32_t run = st->k_w * cin, K = st->k_h * run;
    const int8_t *src = in + c.y0 * st->in_sy + c.x0 * st->in_sx;
    const int32_t row_step = st->dil_h * st->in_sy;
    if (cin % 4 != 0) {
      int8_t *dst = stage;
      for (int32_t ky = 0; ky < st->k_h; ky++, src += row_step) {
        for (int32_t i = 0; i < run; i++) {
          *dst++ = src[i];
        }
      }
      words_of(stage, (K + 3) >> 2, pair + j, dbl);
      return;
    }
    uint32_t *dst = pair + j;
    for (int32_t ky = 0; ky < st->k_h; ky++, src += row_step, dst += run) {
      words_of(src, run >> 2, dst, dbl);
    }
    return;
  }
  if (cin % 4 != 0) {
    int16_t *const out = (int16_t *)(void *)pair;
    int32_t k = 0;
    for (int32_t ky = 0; ky < st->k_h; ky++) {
      for (int32_t kx = 0; kx < st->k_w; kx++) {
        const int8_t *src = tap(st, in, c.y0 + ky * st->dil_h, c.x0 + kx * st->dil_w);
        for (int32_t i = 0; i < cin; i++, k++) {
          out[pair_index(k, j)] = (int16_t)(src != NULL ? src[i] * scale : pad);
        }
      }
    }
    return;
  }
  const uint32_t pad2 = (uint32_t)(uint16_t)pad * 0x10001u;
  uint32_t *dst = pair + j;
  for (int32_t ky = 0; ky < st->k_h; ky++) {
    for (int32_t kx = 0; kx < st->k_w; kx++) {
      const int8_t *src = tap(st, in, c.y0 + ky * st->dil_h, c.x0 + kx * st->dil_w);
      if (src == NULL) {
        for (int32_t i = 0; i < cin; i += 4, dst += 4) {
          dst[0] = pad2;
          dst[2] = pad2;
        }
      } else {
        words_of(src, cin >> 2, dst, dbl);
        dst += cin;
      }
    }
  }
}

/* Out channel oc's bytes of two columns, o0[oc] and o1[oc], from their sums: with the quick
 * epilogue clamped to all of int8 (`mode` QUICK_SAT) the sums are doubled and `r` is the
 * channel's record (rq_record), else finish_e twice (inlined once, the channel's rounding
 * terms are worked out once). */
enum { GENERAL, QUICK_SAT };
__attribute__((always_inline)) static inline void out2(const epilogue *e, int mode, const uint32_t *r,
                                                          int32_t mult, int32_t shift, uint32_t a0, uint32_t a1,
                                                          int8_t *o0, int8_t *o1) {
  uint32_t m, rd, sh, t;
#define TWO(clamp)                                                                         \
  "ldrd   %[m], %[rd], [%[r]]\n\tldr    %[sh], [%[r], #8]\n\t" TP_DSP_RQ("a", clamp)     \
  "strb   %[t], [%[o0]]\n\t" TP_DSP_RQ("b", clamp) "strb   %[t], [%[o1]]\n\t"
  if (mode == QUICK_SAT) {
    __asm__ volatile(TWO(TP_DSP_CLAMP_SAT)
                     : [m] "=&r"(m), [rd] "=&r"(rd), [sh] "=&r"(sh), [t] "=&r"(t)
                     : [r] "r"(r), [a] "r"(a0), [b] "r"(a1), [o0] "r"(o0), [o1] "r"(o1), [off] "r"(e->out_off)
                     : "memory");
  } else {
    *o0 = finish_e(e, a0, mult, shift);
    *o1 = finish_e(e, a1, mult, shift);
  }
#undef TWO
}

/* Out channel oc's bytes of two columns by finish_e (depthwise routines below). */
__attribute__((always_inline)) static inline void finish2(const epilogue *e, int32_t mult, int32_t shift,
                                                          uint32_t a0, uint32_t a1, int8_t *o0, int8_t *o1) {
  *o0 = finish_e(e, a0, mult, shift);
  *o1 = finish_e(e, a1, mult, shift);
}

/* The 2 x 2 block's sums over n4 groups of four window values: a00/a01 += weights wa . columns
 * 0/1, a10/a11 += wb . columns 0/1 (pair as window_of lays it out); *wa and *wb move past the
 * bytes read. 17 instructions per 16 multiply-accumulates, two groups a turn: GCC spills a
 * pointer of this loop to the stack (it wants 14 registers), so it is written out; the
 * registers are GCC's. */
__attribute__((always_inline)) static inline void dot2x2(const int8_t **wa, const int8_t **wb, const uint32_t *pair,
                                                         int32_t n4, int32_t *a00, int32_t *a01, int32_t *a10,
                                                         int32_t *a11) {
  const int8_t *pa = *wa, *pb = *wb;
  const uint32_t *x = pair;
  int32_t s00 = *a00, s01 = *a01, s10 = *a10, s11 = *a11, n = n4 >> 1;
  uint32_t va, vb, t, x0, x1;
#define STEP                                            \
  "ldr    %[va], [%[pa]], #4\n\t"                      \
  "ldr    %[vb], [%[pb]], #4\n\t"                      \
  "ldrd   %[x0], %[x1], [%[x]], #8\n\t"                \
  "sxtb16 %[t], %[va]\n\t"                             \
  "smlad  %[s00], %[t], %[x0], %[s00]\n\t"             \
  "smlad  %[s01], %[t], %[x1], %[s01]\n\t"             \
  "sxtb16 %[t], %[vb]\n\t"                             \
  "smlad  %[s10], %[t], %[x0], %[s10]\n\t"             \
  "smlad  %[s11], %[t], %[x1], %[s11]\n\t"             \
  "ldrd   %[x0], %[x1], [%[x]], #8\n\t"                \
  "sxtb16 %[t], %[va], ror #8\n\t"                     \
  "smlad  %[s00], %[t], %[x0], %[s00]\n\t"             \
  "smlad  %[s01], %[t], %[x1], %[s01]\n\t"             \
  "sxtb16 %[t], %[vb], ror #8\n\t"                     \
  "smlad  %[s10], %[t], %[x0], %[s10]\n\t"             \
  "smlad  %[s11], %[t], %[x1], %[s11]\n\t"
  /* An odd group first, then two groups a turn of the loop (16 + 16 + 2 instructions). */
  if (n4 & 1) {
    __asm__ volatile(STEP
                     : [pa] "+r"(pa), [pb] "+r"(pb), [x] "+r"(x), [s00] "+r"(s00), [s01] "+r"(s01),
                       [s10] "+r"(s10), [s11] "+r"(s11), [va] "=&r"(va), [vb] "=&r"(vb), [t] "=&r"(t),
                       [x0] "=&r"(x0), [x1] "=&r"(x1)
                     :
                     : "memory");
  }
  if (n > 0) {
    __asm__ volatile("1:\n\t" STEP STEP
                     "subs   %[n], %[n], #1\n\t"
                     "bne    1b\n\t"
                     : [pa] "+r"(pa), [pb] "+r"(pb), [x] "+r"(x), [n] "+r"(n), [s00] "+r"(s00), [s01] "+r"(s01),
                       [s10] "+r"(s10), [s11] "+r"(s11), [va] "=&r"(va), [vb] "=&r"(vb), [t] "=&r"(t),
                       [x0] "=&r"(x0), [x1] "=&r"(x1)
                     :
                     : "cc", "memory");
  }
#undef STEP
  *wa = pa;
  *wb = pb;
  *a00 = s00;
  *a01 = s01;
  *a10 = s10;
  *a11 = s11;
}

/* Every out channel of two columns (their windows interleaved in `pair`), two channels at a
 * time: their weights are K contiguous bytes each (OHWI), four at a time by SMLAD, the rest
 * one by one; each starts from its record (rec: start value, then the quick epilogue's
 * record, four words a channel). When the channel count is odd, the last pass computes its
 * channel twice and stores it once. */
__attribute__((always_inline)) static inline void conv_pairs(const epilogue *ep, int mode, const uint32_t *rec,
                                                             const tp_s8_conv_data *d, int32_t cout, int32_t K,
                                                             const uint32_t *pair, int8_t *o0, int8_t *o1) {
  const epilogue local = *ep, *const e = &local; /* a local: the out stores cannot alias it */
  const int32_t *mult = d->mult, *shift = d->shift;
  const int32_t n4 = K >> 2;
  const int16_t *const x16 = (const int16_t *)(const void *)pair;
  const int8_t *wa = d->w;
  /* Channel pairs, then an odd last channel as a pair with itself (stored once). */
  for (int32_t oc = 0; oc < cout; oc += 2, rec += 8, o0 += 2, o1 += 2, mult += 2, shift += 2) {
    const bool two = oc + 1 < cout;
    const int8_t *wb = two ? wa + K : wa;
    int32_t a00 = (int32_t)rec[0], a01 = a00, a10 = (int32_t)rec[two ? 4 : 0], a11 = a10;
    if (n4 > 0) {
      dot2x2(&wa, &wb, pair, n4, &a00, &a01, &a10, &a11);
    }
    for (int32_t k = n4 * 4; k < K; k++, wa++, wb++) {
      const int32_t p = x16[pair_index(k, 0)], q = x16[pair_index(k, 1)];
      a00 = (int32_t)((uint32_t)a00 + (uint32_t)(*wa * p));
      a01 = (int32_t)((uint32_t)a01 + (uint32_t)(*wa * q));
      a10 = (int32_t)((uint32_t)a10 + (uint32_t)(*wb * p));
      a11 = (int32_t)((uint32_t)a11 + (uint32_t)(*wb * q));
    }
    wa = wb; /* past channel oc + 1's weights (or oc's, the last) */
    out2(e, mode, rec + 1, mult[0], shift[0], (uint32_t)a00, (uint32_t)a01, o0, o1);
    if (two) {
      out2(e, mode, rec + 5, mult[1], shift[1], (uint32_t)a10, (uint32_t)a11, o0 + 1, o1 + 1);
    }
  }
}

/* The copies of conv_pairs the calls take (by epilogue). */
#define CONV_PAIRS(name, mode)                                                                              \
  __attribute__((noinline)) static void name(const epilogue *ep, const uint32_t *rec, const tp_s8_conv_data *d, \
                                             int32_t cout, int32_t K, const uint32_t *pair, int8_t *o0,         \
                                             int8_t *o1) {                                                      \
    conv_pairs(ep, mode, rec, d, cout, K, pair, o0, o1);                                                        \
  }
CONV_PAIRS(conv_pairs_sat, QUICK_SAT)
CONV_PAIRS(conv_pairs_general, GENERAL)
#undef CONV_PAIRS

/* The sum of n int8 weights, four a step (SMLAD of their halves with (1, 1)). */
static uint32_t weight_sum(const int8_t *w, int32_t n) {
  int32_t s = 0;
  int32_t k = 0;
  for (; k + 4 <= n; k += 4) {
    const uint32_t v = load32(w + k);
    s = __smlad(__sxtb16((int8x4_t)v), (int16x2_t)0x00010001, s);
    s = __smlad(sxtb16_ror8(v), (int16x2_t)0x00010001, s);
  }
  for (; k < n; k++) {
    s += w[k];
  }
  return (uint32_t)s;
}

/* One group: columns two at a time (the last one alone writes its bytes twice, the same
 * values). */
void tp_s8_conv_fast_conv(const tp_s8_conv *st, const tp_s8_conv_data *d) {
  const int32_t K = st->k_h * st->k_w * st->in_c;
  const int32_t npos = st->out_h * st->out_w;
  uint32_t *pair = (uint32_t *)d->scratch;
  const epilogue ep = epilogue_of(st, d, K);
  /* Per out channel, after the window (tp_s8_conv_scratch_bytes): its start value (bias +
   * input_offset * sum of its weights, doubled with the quick epilogue) and the quick
   * epilogue's record. */
  uint32_t *const rec = pair + round_up(K, 4);
  int8_t *const stage = (int8_t *)(rec + 4 * st->out_c); /* a column's K inputs, gathered */
  /* Two copies of the loops (flash): the quick epilogue clamped to all of int8 (the zoo's), and
   * any other. */
  const bool quick = ep.quick && clamp_is_sat(&ep);
  const int mode = quick ? QUICK_SAT : GENERAL;
  for (int32_t c = 0; c < st->out_c; c++) {
    const uint32_t sum = weight_sum(d->w + c * K, K);
    const uint32_t start = (d->bias != NULL ? (uint32_t)d->bias[c] : 0u) + (uint32_t)st->input_offset * sum;
    rec[4 * c] = start * (quick ? 2u : 1u);
    if (quick) {
      rq_record(d, c, rec + 4 * c + 1);
    }
  }
  for (int32_t b = 0; b < st->batches; b++) {
    const int8_t *in = d->in + b * st->in_sn;
    int8_t *out = d->out + b * st->out_sn;
    for (int32_t pos = 0; pos < npos; pos += 2) {
      const column c0 = column_at(st, out, pos);
      const column c1 = column_at(st, out, pos + 1 < npos ? pos + 1 : pos);
      window_of(st, in, c0, pair, 0, quick, stage);
      window_of(st, in, c1, pair, 1, quick, stage);
      if (mode == QUICK_SAT) {
        conv_pairs_sat(&ep, rec, d, st->out_c, K, pair, c0.out, c1.out);
      } else {
        conv_pairs_general(&ep, rec, d, st->out_c, K, pair, c0.out, c1.out);
      }
    }
  }
}

/* Depthwise, every out channel of two columns (windows x0 and x1: for each input channel kp
 * taps, kp even, the last one 0 when kh * kw is odd), two channels at a time: out channel oc
 * reads input channel oc / dm; its weights are kk taps Cout bytes apart, so a halfword of each
 * of two taps makes a word whose SXTB16 pairs are (oc, tap t and t + 1) and (oc + 1, ...). */
__attribute__((always_inline)) static inline void dw_pairs(const epilogue *ep, const tp_s8_conv_data *d,
                                                           int32_t cout, int32_t dm, int32_t kk, int32_t kp,
                                                           const int16_t *x0, const int16_t *x1, int8_t *o0,
                                                           int8_t *o1, bool one_input) {
  const epilogue local = *ep, *const e = &local; /* a local: the out stores cannot alias it */
  const int32_t *const bias = d->bias, *const mult = d->mult, *const shift = d->shift;
  int32_t oc = 0;
  for (; oc + 2 <= cout; oc += 2) {
    /* With one input channel every out channel reads the one window: its values are loaded
     * once for both channels. */
    const int32_t ca = one_input ? 0 : oc / dm * kp, cb = one_input ? 0 : (oc + 1) / dm * kp;
    const int16_t *pa = x0 + ca, *pb = x0 + cb, *qa = x1 + ca, *qb = x1 + cb;
    const int8_t *wp = d->w + oc;
    int32_t a00 = 0, a10 = 0;
    if (bias != NULL) {
      a00 = bias[oc];
      a10 = bias[oc + 1];
    }
    int32_t a01 = a00, a11 = a10, t = 0;
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
    finish2(e, mult[oc], shift[oc], (uint32_t)a00, (uint32_t)a01, o0 + oc, o1 + oc);
    finish2(e, mult[oc + 1], shift[oc + 1], (uint32_t)a10, (uint32_t)a11, o0 + oc + 1, o1 + oc + 1);
  }
  if (oc < cout) { /* an odd channel count: the last channel alone (a halfword would overrun) */
    const int32_t ca = one_input ? 0 : oc / dm * kp;
    const int8_t *wp = d->w + oc;
    uint32_t a0 = bias != NULL ? (uint32_t)bias[oc] : 0u, a1 = a0;
    for (int32_t t = 0; t < kk; t++, wp += cout) {
      a0 += (uint32_t)(*wp * x0[ca + t]);
      a1 += (uint32_t)(*wp * x1[ca + t]);
    }
    finish2(e, mult[oc], shift[oc], a0, a1, o0 + oc, o1 + oc);
  }
}

/* dw_pairs for one input channel (a first layer) and for any. */
__attribute__((noinline)) static void dw_pairs_c1(const epilogue *ep, const tp_s8_conv_data *d, int32_t cout,
                                                  int32_t kk, int32_t kp, const int16_t *x0, const int16_t *x1,
                                                  int8_t *o0, int8_t *o1) {
  dw_pairs(ep, d, cout, cout, kk, kp, x0, x1, o0, o1, true);
}

__attribute__((noinline)) static void dw_pairs_any(const epilogue *ep, const tp_s8_conv_data *d, int32_t cout,
                                                   int32_t dm, int32_t kk, int32_t kp, const int16_t *x0,
                                                   const int16_t *x1, int8_t *o0, int8_t *o1) {
  dw_pairs(ep, d, cout, dm, kk, kp, x0, x1, o0, o1, false);
}

/* The window of a column with one input channel: kp int16 taps, x + input_offset for those
 * inside the image, 0 for the others (and the last when kh * kw is odd). */
static void window_c1(const tp_s8_conv *st, const int8_t *in, column c, int16_t *col, int32_t kp) {
  uint32_t *const words = (uint32_t *)(void *)col;
  for (int32_t i = 0; i < kp / 2; i++) {
    words[i] = 0u;
  }
  const int32_t dil_h = st->dil_h, dil_w = st->dil_w, kw = st->k_w, off = st->input_offset;
  const int32_t ky0 = first_tap(c.y0, dil_h), ky1 = end_tap(c.y0, st->in_h, st->k_h, dil_h);
  const int32_t kx0 = first_tap(c.x0, dil_w), kx1 = end_tap(c.x0, st->in_w, kw, dil_w);
  const int32_t step_x = st->in_sx * dil_w;
  for (int32_t ky = ky0; ky < ky1; ky++) {
    const int8_t *src = in + (c.y0 + ky * dil_h) * st->in_sy + (c.x0 + kx0 * dil_w) * st->in_sx;
    int16_t *dst = col + ky * kw + kx0;
    for (int32_t kx = kx0; kx < kx1; kx++, src += step_x) {
      *dst++ = (int16_t)(*src + off);
    }
  }
}

void tp_s8_conv_fast_depthwise(const tp_s8_conv *st, const tp_s8_conv_data *d) {
  if (st->cout_g == 1 && st->in_c > 1 && tp_s8_conv_dsp_depthwise1(st, d)) {
    return;
  }
  if (st->in_c == 1 && st->k_h * st->k_w >= 16) {
    /* One input channel (a first layer) with a large filter: a convolution of Cout channels over
     * K = kh kw taps, its weights transposed to OHWI in the scratch, then the convolution's
     * 2 x 2 blocks (below 16 taps their overhead costs more than dw_pairs_c1's). */
    const int32_t kk = st->k_h * st->k_w, cout = st->out_c;
    int8_t *const wt = (int8_t *)d->scratch;
    for (int32_t oc = 0; oc < cout; oc++) {
      for (int32_t t = 0; t < kk; t++) {
        wt[oc * kk + t] = d->w[t * cout + oc];
      }
    }
    tp_s8_conv cs = *st;
    cs.depthwise = 0;
    cs.cin_g = 1;
    cs.cout_g = cout;
    cs.w_si = 1;
    cs.w_sx = 1;
    cs.w_sy = st->k_w;
    cs.w_so = kk;
    tp_s8_conv_data dc = *d;
    dc.w = wt;
    dc.scratch = wt + round_up(cout * kk, 4);
    tp_s8_conv_fast_conv(&cs, &dc);
    return;
  }
  const int32_t kk = st->k_h * st->k_w, kp = round_up(kk, 2);
  const int32_t npos = st->out_h * st->out_w, block = st->in_c * kp;
  const epilogue ep = epilogue_of(st, d, kk);
  int16_t *col0 = (int16_t *)d->scratch, *col1 = col0 + block;
  for (int32_t b = 0; b < st->batches; b++) {
    const int8_t *in = d->in + b * st->in_sn;
    int8_t *out = d->out + b * st->out_sn;
    for (int32_t pos = 0; pos < npos; pos += 2) {
      const column c0 = column_at(st, out, pos);
      const column c1 = column_at(st, out, pos + 1 < npos ? pos + 1 : pos);
      if (st->in_c == 1) {
        window_c1(st, in, c0, col0, kp);
        window_c1(st, in, c1, col1, kp);
        dw_pairs_c1(&ep, d, st->out_c, kk, kp, col0, col1, c0.out, c1.out);
      } else {
        im2col_dw_s16(st, in, c0, col0);
        im2col_dw_s16(st, in, c1, col1);
        dw_pairs_any(&ep, d, st->out_c, st->cout_g, kk, kp, col0, col1, c0.out, c1.out);
      }
    }
  }
}

const char *tp_s8_conv_fast_path_name(void) { return "dsp"; }
#endif
