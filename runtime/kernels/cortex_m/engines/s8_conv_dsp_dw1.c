/* The DSP routine (Armv7E-M/Armv8-M: Cortex-M4/M7/M33) of an _nhwc depthwise convolution with a
 * depth multiplier of 1: out channel c reads input channel c only, so the taps of a column
 * are words of four channels at their NHWC places and no im2col window is built.
 *
 * Per call, each group of four channels gets a record in the scratch (records_of):
 *   - a start value per channel, bias + input_offset * (sum of its weights), so that the inner
 *     loop multiplies raw inputs: (x + offset) . w = x . w + offset . sum(w);
 *   - its requantization (multiplier, rounding term 2^(r-1), right shift r);
 *   - its weights widened, tap by tap, into the int16 pairs (w0, w2), (w1, w3) that SXTB16
 *     makes of an input word and of it rotated by 8: four multiply-accumulates are then
 *     SMLABB/SMLATT on the halves, eight instructions a tap.
 * It takes the zoo's case: a 3 x 3 filter, the quick epilogue (every channel shifts right,
 * sums within 30 bits) clamped to all of int8; the start values and weights are doubled (the
 * operand SMMULR wants) and the requantization is written out in assembly. Other calls return
 * false and take s8_conv_dsp.c's windowed routine.
 *
 * A column whose taps all lie inside the image reads the input in place. A column at the
 * border is first copied into a window of kh x kw taps in the scratch, its padded taps filled
 * with -input_offset: their term (x + offset) . w is 0, so the same start values hold. Channels
 * past the last multiple of four go one by one, with the offset added. Scratch:
 * (16 + 3 kh kw) bytes per channel at most (tp_s8_conv_scratch_bytes). Bit-exact with the
 * portable routine (tests/kernels/s8_conv_paths.c). */
#include "cortex_m/engines/s8_conv_window.h"

/* The loops are where an int8 model's time goes: compiled for speed whatever the build's level
 * (s8_conv.c says why). */
#pragma GCC optimize("O2", "no-tree-loop-distribute-patterns")

#if defined(TP_S8_CONV_DSP)

enum { HEAD = 16 }; /* words of a record before its widened weights */

typedef struct dw1 {
  const tp_s8_conv *st;
  const tp_s8_conv_data *d;
  const uint32_t *rec; /* per group of four channels: start[4], (mult, round, right)[4], weights */
  int8_t *window;      /* a border column's taps, kh x kw x C bytes */
  int32_t c4;          /* channels in groups of four */
  int32_t rec_words;   /* HEAD + 2 kh kw */
} dw1;

static dw1 records_of(const tp_s8_conv *st, const tp_s8_conv_data *d) {
  const int32_t kk = st->k_h * st->k_w, C = st->out_c, c4 = C & ~3, rec_words = HEAD + 2 * kk;
  const uint32_t off = (uint32_t)st->input_offset;
  uint32_t *const rec = (uint32_t *)d->scratch;
  for (int32_t c = 0; c < c4; c += 4) {
    uint32_t *const r = rec + c / 4 * rec_words, *const wide = r + HEAD;
    for (int32_t i = 0; i < 4; i++) {
      r[i] = d->bias != NULL ? (uint32_t)d->bias[c + i] : 0u;
      rq_record(d, c + i, r + 4 + 3 * i);
    }
    for (int32_t t = 0; t < kk; t++) {
      const int8_t *wp = d->w + t * C + c;
      const uint32_t v = load32(wp);
      const int16x2_t we = __sxtb16((int8x4_t)v), wo = sxtb16_ror8(v);
      wide[2 * t] = (uint32_t)__sadd16(we, we); /* doubled: |w| <= 128, 2 w fits each half */
      wide[2 * t + 1] = (uint32_t)__sadd16(wo, wo);
      for (int32_t i = 0; i < 4; i++) {
        r[i] += off * (uint32_t)(int32_t)wp[i];
      }
    }
    for (int32_t i = 0; i < 4; i++) {
      r[i] *= 2u;
    }
  }
  const dw1 k = {st, d, rec, (int8_t *)(rec + c4 / 4 * rec_words), c4, rec_words};
  return k;
}

/* The window of a border column c: for each tap (ky, kx) its C input bytes, or C bytes of
 * -input_offset where the tap lies outside. */
static void window_of(const dw1 *k, const int8_t *in, column c) {
  const tp_s8_conv *st = k->st;
  const int32_t C = st->out_c, words = C / 4;
  const uint32_t pad = (uint32_t)(uint8_t)(int8_t)-st->input_offset * 0x01010101u;
  int8_t *dst = k->window;
  for (int32_t ky = 0; ky < st->k_h; ky++) {
    for (int32_t kx = 0; kx < st->k_w; kx++, dst += C) {
      const int8_t *src = tap(st, in, c.y0 + ky * st->dil_h, c.x0 + kx * st->dil_w);
      if (src == NULL) {
        for (int32_t i = 0; i < words; i++) {
          memcpy(dst + 4 * i, &pad, 4);
        }
        for (int32_t i = 4 * words; i < C; i++) {
          dst[i] = (int8_t)pad;
        }
      } else {
        for (int32_t i = 0; i < words; i++) {
          const uint32_t v = load32(src + 4 * i);
          memcpy(dst + 4 * i, &v, 4);
        }
        for (int32_t i = 4 * words; i < C; i++) {
          dst[i] = src[i];
        }
      }
    }
  }
}

/* The four sums of the group of record r over the nine taps: `p` is the group's input at the
 * top-left tap; taps `sx` bytes apart in a row, rows `sy` apart. Written out in assembly (GCC
 * spills the steps of this loop): 8 instructions a tap, one add a row. */
__attribute__((always_inline)) static inline void group_sums(const uint32_t *r, const int8_t *p, int32_t sx,
                                                             int32_t sy, int32_t acc[4]) {
  const uint32_t *wg = r + HEAD;
  int32_t a0 = (int32_t)r[0], a1 = (int32_t)r[1], a2 = (int32_t)r[2], a3 = (int32_t)r[3];
  uint32_t x, xe, xo, we, wo;
#define TAP(load, w_off)                                 \
  load "\n\t"                                            \
  "ldrd   %[we], %[wo], [%[wg], #" #w_off "]\n\t"        \
  "sxtb16 %[xe], %[x]\n\t"                               \
  "sxtb16 %[xo], %[x], ror #8\n\t"                       \
  "smlabb %[a0], %[xe], %[we], %[a0]\n\t"                \
  "smlatt %[a2], %[xe], %[we], %[a2]\n\t"                \
  "smlabb %[a1], %[xo], %[wo], %[a1]\n\t"                \
  "smlatt %[a3], %[xo], %[wo], %[a3]\n\t"
#define ROW(w0, w1, w2)                                  \
  TAP("ldr    %[x], [%[p]]", w0)                         \
  TAP("ldr    %[x], [%[p], %[sx]]", w1)                  \
  TAP("ldr    %[x], [%[p], %[sx], lsl #1]", w2)          \
  "add    %[p], %[p], %[sy]\n\t"
  __asm__(ROW(0, 8, 16) ROW(24, 32, 40) ROW(48, 56, 64)
          : [p] "+&r"(p), [a0] "+&r"(a0), [a1] "+&r"(a1), [a2] "+&r"(a2), [a3] "+&r"(a3), [x] "=&r"(x),
            [xe] "=&r"(xe), [xo] "=&r"(xo), [we] "=&r"(we), [wo] "=&r"(wo)
          : [wg] "r"(wg), [sx] "r"(sx), [sy] "r"(sy)
          : "memory");
#undef ROW
#undef TAP
  acc[0] = a0;
  acc[1] = a1;
  acc[2] = a2;
  acc[3] = a3;
}

/* The four out bytes of a group from its doubled sums by the record's requantization (the
 * quick epilogue, TP_DSP_RQ), clamped to all of int8: two bytes an asm block. */
__attribute__((always_inline)) static inline void quick_out4(const uint32_t *r, const int32_t acc[4], const epilogue *e,
                                                             int8_t *o) {
  uint32_t m, rd, sh, t;
  const uint32_t *q = r + 4;
#define LOAD "ldrd   %[m], %[rd], [%[q]], #12\n\tldr    %[sh], [%[q], #-4]\n\t"
  for (int32_t i = 0; i < 4; i += 2) {
    __asm__ volatile(LOAD TP_DSP_RQ("a0", TP_DSP_CLAMP_SAT) "strb   %[t], [%[o]]\n\t" LOAD
                         TP_DSP_RQ("a1", TP_DSP_CLAMP_SAT) "strb   %[t], [%[o], #1]\n\t"
                     : [q] "+&r"(q), [m] "=&r"(m), [rd] "=&r"(rd), [sh] "=&r"(sh), [t] "=&r"(t)
                     : [a0] "r"(acc[i]), [a1] "r"(acc[i + 1]), [o] "r"(o + i), [off] "r"(e->out_off)
                     : "memory");
  }
#undef LOAD
}

/* The channels past the groups of four, one by one; `p` is the first one's top-left tap. */
__attribute__((noinline)) static void rest(const dw1 *k, const epilogue *e, const int8_t *p, int32_t sx, int32_t sy,
                                           int8_t *o) {
  const tp_s8_conv *st = k->st;
  const tp_s8_conv_data *d = k->d;
  for (int32_t ch = k->c4; ch < st->out_c; ch++, p++, o++) {
    uint32_t a = d->bias != NULL ? (uint32_t)d->bias[ch] : 0u;
    const int8_t *row = p;
    for (int32_t ky = 0; ky < st->k_h; ky++, row += sy) {
      const int8_t *q = row;
      for (int32_t kx = 0; kx < st->k_w; kx++, q += sx) {
        a += (uint32_t)((*q + st->input_offset) * d->w[(ky * st->k_w + kx) * st->out_c + ch]);
      }
    }
    *o = finish_e(e, a, d->mult[ch], d->shift[ch]);
  }
}

/* One column: `p` its top-left tap (in the input or the window), taps sx and sy apart. */
__attribute__((always_inline)) static inline void column_out(const dw1 *k, const epilogue *e, const int8_t *p,
                                                             int32_t sx, int32_t sy, int8_t *o) {
  const uint32_t *r = k->rec;
  const int32_t groups = k->c4 / 4;
  for (int32_t g = 0; g < groups; g++, p += 4, o += 4, r += k->rec_words) {
    int32_t acc[4];
    group_sums(r, p, sx, sy, acc);
    quick_out4(r, acc, e, o);
  }
  if (k->c4 < k->st->out_c) {
    rest(k, e, p, sx, sy, o);
  }
}

/* Every column of one batch (3 x 3 taps). */
__attribute__((noinline)) static void columns(const dw1 *k, const epilogue *ep, const int8_t *in, int8_t *out) {
  const tp_s8_conv *st = k->st;
  const epilogue local = *ep, *const e = &local; /* a local: the out stores cannot alias it */
  const int32_t sx = st->in_sx * st->dil_w, sy = st->in_sy * st->dil_h;
  const int32_t wsx = st->out_c, wsy = 3 * st->out_c; /* the window's steps */
  for (int32_t oy = 0; oy < st->out_h; oy++) {
    const int32_t y0 = oy * st->stride_h - st->pad_h;
    const bool rows_inside = y0 >= 0 && y0 + 2 * st->dil_h < st->in_h;
    for (int32_t ox = 0; ox < st->out_w; ox++) {
      const column c = column_at(st, out, oy * st->out_w + ox);
      if (rows_inside && c.x0 >= 0 && c.x0 + 2 * st->dil_w < st->in_w) {
        column_out(k, e, in + c.y0 * st->in_sy + c.x0 * st->in_sx, sx, sy, c.out);
      } else {
        window_of(k, in, c);
        column_out(k, e, k->window, wsx, wsy, c.out);
      }
    }
  }
}

bool tp_s8_conv_dsp_depthwise1(const tp_s8_conv *st, const tp_s8_conv_data *d) {
  const epilogue ep = epilogue_of(st, d, st->k_h * st->k_w);
  /* One copy of the loops (each costs flash in every program with a depthwise convolution):
   * the zoo's case, 3 x 3 with the quick epilogue clamped to all of int8. */
  if (!(ep.quick && clamp_is_sat(&ep) && st->k_h == 3 && st->k_w == 3)) {
    return false;
  }
  const dw1 k = records_of(st, d);
  for (int32_t b = 0; b < st->batches; b++) {
    columns(&k, &ep, d->in + b * st->in_sn, d->out + b * st->out_sn);
  }
  return true;
}

#endif
