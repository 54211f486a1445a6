/* The fast routines of the _nhwc int8 convolutions on cores with the DSP extension (Armv7E-M
 * and Armv8-M Mainline: Cortex-M4/M7/M33): int16 windows (input + offset, padding 0) of two
 * columns (output positions), and for each pair of out channels a 2 x 2 block of sums by
 * SMLAD, two int16 products per instruction, each block requantized as soon as it is done.
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

/* The windows of two columns, interleaved for the 2 x 2 blocks: for each group of four window
 * values (x0, x1, x2, x3) of column 0 and (y0, y1, y2, y3) of column 1, the words
 * (x0, x2), (y0, y2), (x1, x3), (y1, y3) as int16 pairs: what SXTB16 of a weight word and of it
 * rotated by 8 multiply, the two columns side by side so that one pointer walks both. A
 * partial last group (K not a multiple of 4) keeps the same places for its values. */
static inline int32_t pair_index(int32_t k, int32_t j) {
  const int32_t r = k & 3;
  return 2 * ((k & ~3) + j + 2 * (r & 1)) + (r >> 1);
}

/* Column j of the pair (x + input_offset, 0 for padding). For Cin a multiple of 4 a word of four
 * inputs gives (x0, x2) by SXTB16 and (x1, x3) by SXTB16 of it rotated by 8, the offset added
 * to both halves by SADD16 (|x + offset| <= 255); otherwise value by value. */
static void window_of(const tp_s8_conv *st, const int8_t *in, column c, uint32_t *pair, int32_t j) {
  const int32_t cin = st->in_c;
  if (cin % 4 != 0) {
    int16_t *const out = (int16_t *)(void *)pair;
    const int32_t off = st->input_offset;
    int32_t k = 0;
    for (int32_t ky = 0; ky < st->k_h; ky++) {
      for (int32_t kx = 0; kx < st->k_w; kx++) {
        const int8_t *src = tap(st, in, c.y0 + ky * st->dil_h, c.x0 + kx * st->dil_w);
        for (int32_t i = 0; i < cin; i++, k++) {
          out[pair_index(k, j)] = src != NULL ? (int16_t)(src[i] + off) : 0;
        }
      }
    }
    return;
  }
  const int16x2_t off2 = (int16x2_t)((uint32_t)(uint16_t)st->input_offset * 0x10001u);
  uint32_t *dst = pair + j;
  for (int32_t ky = 0; ky < st->k_h; ky++) {
    for (int32_t kx = 0; kx < st->k_w; kx++) {
      const int8_t *src = tap(st, in, c.y0 + ky * st->dil_h, c.x0 + kx * st->dil_w);
      if (src == NULL) {
        for (int32_t i = 0; i < cin; i += 4, dst += 4) {
          dst[0] = 0u;
          dst[2] = 0u;
        }
      } else {
        for (int32_t i = 0; i < cin; i += 4, dst += 4) {
          const uint32_t w = load32(src + i);
          dst[0] = (uint32_t)__sadd16(__sxtb16((int8x4_t)w), off2);
          dst[2] = (uint32_t)__sadd16(sxtb16_ror8(w), off2);
        }
      }
    }
  }
}

/* Out channel oc's bytes of two columns, o0[oc] and o1[oc], from their sums (finish_e twice:
 * once inlined, the channel's rounding terms are worked out once for both). */
__attribute__((always_inline)) static inline void finish2(const epilogue *e, int32_t mult, int32_t shift,
                                                          uint32_t a0, uint32_t a1, int8_t *o0, int8_t *o1) {
  *o0 = finish_e(e, a0, mult, shift);
  *o1 = finish_e(e, a1, mult, shift);
}

/* The 2 x 2 block's sums over n4 groups of four window values: a00/a01 += weights wa . columns
 * 0/1, a10/a11 += wb . columns 0/1 (pair as window_of lays it out); *wa and *wb move past the
 * bytes read. 18 instructions per 16 multiply-accumulates: GCC spills a pointer of this loop
 * to the stack (it wants 14 registers), so it is written out; the registers are GCC's. */
__attribute__((always_inline)) static inline void dot2x2(const int8_t **wa, const int8_t **wb, const uint32_t *pair,
                                                         int32_t n4, int32_t *a00, int32_t *a01, int32_t *a10,
                                                         int32_t *a11) {
  const int8_t *pa = *wa, *pb = *wb;
  const uint32_t *x = pair;
  int32_t s00 = *a00, s01 = *a01, s10 = *a10, s11 = *a11, n = n4;
  uint32_t va, vb, t, x0, x1;
  __asm__ volatile(
      "1:\n\t"
      "ldr    %[va], [%[pa]], #4\n\t"
      "ldr    %[vb], [%[pb]], #4\n\t"
      "ldrd   %[x0], %[x1], [%[x]], #8\n\t"
      "sxtb16 %[t], %[va]\n\t"
      "smlad  %[s00], %[t], %[x0], %[s00]\n\t"
      "smlad  %[s01], %[t], %[x1], %[s01]\n\t"
      "sxtb16 %[t], %[vb]\n\t"
      "smlad  %[s10], %[t], %[x0], %[s10]\n\t"
      "smlad  %[s11], %[t], %[x1], %[s11]\n\t"
      "ldrd   %[x0], %[x1], [%[x]], #8\n\t"
      "sxtb16 %[t], %[va], ror #8\n\t"
      "smlad  %[s00], %[t], %[x0], %[s00]\n\t"
      "smlad  %[s01], %[t], %[x1], %[s01]\n\t"
      "sxtb16 %[t], %[vb], ror #8\n\t"
      "smlad  %[s10], %[t], %[x0], %[s10]\n\t"
      "smlad  %[s11], %[t], %[x1], %[s11]\n\t"
      "subs   %[n], %[n], #1\n\t"
      "bne    1b\n\t"
      : [pa] "+r"(pa), [pb] "+r"(pb), [x] "+r"(x), [n] "+r"(n), [s00] "+r"(s00), [s01] "+r"(s01),
        [s10] "+r"(s10), [s11] "+r"(s11), [va] "=&r"(va), [vb] "=&r"(vb), [t] "=&r"(t), [x0] "=&r"(x0),
        [x1] "=&r"(x1)
      :
      : "cc", "memory");
  *wa = pa;
  *wb = pb;
  *a00 = s00;
  *a01 = s01;
  *a10 = s10;
  *a11 = s11;
}

/* Every out channel of two columns (their windows interleaved in `pair`), two channels at a
 * time: their weights are K contiguous bytes each (OHWI), four at a time by SMLAD, the rest
 * one by one. When the channel count is odd, the last pass computes its channel twice and
 * stores it once. A function of its own so that the four sums, three pointers and the count
 * stay in registers. */
__attribute__((noinline)) static void conv_pairs(const epilogue *ep, const tp_s8_conv_data *d, int32_t cout,
                                                 int32_t K, const uint32_t *pair, int8_t *o0, int8_t *o1) {
  const epilogue local = *ep, *const e = &local; /* a local: the out stores cannot alias it */
  const int32_t *const bias = d->bias, *const mult = d->mult, *const shift = d->shift;
  const int32_t n4 = K >> 2;
  const int16_t *const x16 = (const int16_t *)(const void *)pair;
  for (int32_t oc = 0; oc < cout; oc += 2) {
    const bool two = oc + 1 < cout;
    const int8_t *wa = d->w + oc * K, *wb = two ? wa + K : wa;
    int32_t a00 = 0, a10 = 0;
    if (bias != NULL) {
      a00 = bias[oc];
      a10 = two ? bias[oc + 1] : a00;
    }
    int32_t a01 = a00, a11 = a10;
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
    finish2(e, mult[oc], shift[oc], (uint32_t)a00, (uint32_t)a01, o0 + oc, o1 + oc);
    if (two) {
      finish2(e, mult[oc + 1], shift[oc + 1], (uint32_t)a10, (uint32_t)a11, o0 + oc + 1, o1 + oc + 1);
    }
  }
}

/* One group: columns two at a time (the last one alone writes its bytes twice, the same
 * values). */
void tp_s8_conv_fast_conv(const tp_s8_conv *st, const tp_s8_conv_data *d) {
  const int32_t K = st->k_h * st->k_w * st->in_c;
  const int32_t npos = st->out_h * st->out_w;
  uint32_t *pair = (uint32_t *)d->scratch;
  const epilogue ep = epilogue_of(st, d, K);
  for (int32_t b = 0; b < st->batches; b++) {
    const int8_t *in = d->in + b * st->in_sn;
    int8_t *out = d->out + b * st->out_sn;
    for (int32_t pos = 0; pos < npos; pos += 2) {
      const column c0 = column_at(st, out, pos);
      const column c1 = column_at(st, out, pos + 1 < npos ? pos + 1 : pos);
      window_of(st, in, c0, pair, 0);
      window_of(st, in, c1, pair, 1);
      conv_pairs(&ep, d, st->out_c, K, pair, c0.out, c1.out);
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
