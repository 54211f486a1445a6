/* The int8 matrix product of quantized_linear and quantized_batch_matmul (see s8_matmul.h). */
#include "cortex_m/engines/s8_matmul.h"

#include <string.h>

#include "cortex_m/engines/int8_util.h"

#if TP_S8_MATMUL_DSP
#include <arm_acle.h>
#endif

/* The products are where a fully connected model's time goes: compiled for speed whatever the
 * build's level, and without turning the accumulators' zeroing into memset calls (as the
 * convolutions, s8_conv.c). */
#pragma GCC optimize("O2", "no-tree-loop-distribute-patterns")
#if TP_S8_MATMUL_MVE
#include <arm_mve.h>
#endif

/* Rows of rhs a routine forms together (the lhs row is read once for them). */
enum { BLOCK = 4 };

/* The dot products of one lhs row x with `count` (1..BLOCK) consecutive rhs rows from w:
 * d[i] = sum_k (x[k] + a) * w[i * depth + k], modulo 2^32. */
typedef void (*dots_fn)(const int8_t *x, const int8_t *w, uint32_t depth, int32_t a, uint32_t count, uint32_t *d);

/* sum_k (x[k] + a) (exact: depth and a are bounded by prepare). */
static int32_t row_sum(const int8_t *x, uint32_t depth, int32_t a) {
  int32_t s = (int32_t)depth * a;
  for (uint32_t k = 0; k < depth; k++) {
    s += x[k];
  }
  return s;
}

/* The output of one dot product (see s8_matmul.h): row_term is b * sum_k (x[k] + a). In int32
 * arithmetic (not `wide`) the sum wraps, so its low 32 bits are the whole of it and the
 * requantization takes tp_requantize's 32-bit path. */
static inline int8_t finish(const tp_s8_matmul *p, uint32_t dot, int64_t row_term, int32_t bias) {
  int32_t r;
  if (!p->wide) {
    const uint32_t total = dot + (uint32_t)(uint64_t)row_term + (uint32_t)bias; /* int32 arithmetic wraps */
    r = tp_requantize((int32_t)total, p->multiplier, p->shift);
  } else {
    r = tp_requantize_wide((int64_t)(int32_t)dot + row_term + bias, p->multiplier, p->shift);
  }
  return (int8_t)tp_clamp_i32((int32_t)((uint32_t)r + (uint32_t)p->out_offset), p->act_min, p->act_max);
}

static void matmul(const tp_s8_matmul *p, const int8_t *lhs, const int8_t *rhs, const int32_t *bias, int8_t *out,
                   dots_fn dots, int32_t (*sum)(const int8_t *, uint32_t, int32_t)) {
  const uint32_t depth = p->depth;
  for (uint32_t m = 0; m < p->rows; m++, lhs += depth) {
    const int64_t row_term = p->rhs_offset != 0 ? (int64_t)p->rhs_offset * sum(lhs, depth, p->lhs_offset) : 0;
    for (uint32_t n = 0; n < p->cols; n += BLOCK) {
      const uint32_t count = p->cols - n < BLOCK ? p->cols - n : BLOCK;
      uint32_t d[BLOCK];
      dots(lhs, rhs + n * depth, depth, p->lhs_offset, count, d);
      for (uint32_t i = 0; i < count; i++) {
        *out++ = finish(p, d[i], row_term, bias != NULL ? bias[n + i] : 0);
      }
    }
  }
}

/* --- Portable C: each x[k] + a loaded once for the block's rows. --- */

static void dots_portable(const int8_t *x, const int8_t *w, uint32_t depth, int32_t a, uint32_t count,
                          uint32_t *d) {
  if (count == BLOCK) {
    const int8_t *w1 = w + depth, *w2 = w1 + depth, *w3 = w2 + depth;
    uint32_t d0 = 0, d1 = 0, d2 = 0, d3 = 0;
    for (uint32_t k = 0; k < depth; k++) {
      const int32_t xk = x[k] + a;
      d0 += (uint32_t)(xk * w[k]);
      d1 += (uint32_t)(xk * w1[k]);
      d2 += (uint32_t)(xk * w2[k]);
      d3 += (uint32_t)(xk * w3[k]);
    }
    d[0] = d0, d[1] = d1, d[2] = d2, d[3] = d3;
    return;
  }
  for (uint32_t i = 0; i < count; i++, w += depth) {
    uint32_t s = 0;
    for (uint32_t k = 0; k < depth; k++) {
      s += (uint32_t)((x[k] + a) * w[k]);
    }
    d[i] = s;
  }
}

void tp_s8_matmul_portable(const tp_s8_matmul *p, const int8_t *lhs, const int8_t *rhs, const int32_t *bias,
                           int8_t *out) {
  matmul(p, lhs, rhs, bias, out, dots_portable, row_sum);
}

/* --- DSP: SXTAB16/SXTB16 (with their ROR #8 forms) and SMLAD. ---
 * The lhs row is widened once (per chunk of CHUNK columns) into int16 pairs with the offset
 * added: per four columns the words (x0+a, x2+a) and (x1+a, x3+a). A rhs word w then
 * pairs with them as SXTB16(w) = (w0, w2) and SXTB16(w, ROR 8) = (w1, w3): two SMLADs do
 * four MACs, the weights stay as they are. */
#if TP_S8_MATMUL_DSP

enum { CHUNK = 256 }; /* lhs columns widened at a time (a multiple of 4): 512 bytes of stack */

static inline uint32_t load4(const int8_t *p) {
  uint32_t v;
  memcpy(&v, p, 4); /* one LDR: these cores load unaligned words */
  return v;
}

/* Bytes 1 and 3 of v sign-extended to two int16 lanes, in one SXTB16 with its rotation
 * (GCC 12 does not fold a rotate into __sxtb16). */
static inline int16x2_t sxtb16_ror8(uint32_t v) {
  int16x2_t r;
  __asm__("sxtb16 %0, %1, ror #8" : "=r"(r) : "r"(v));
  return r;
}

/* The same, plus the lanes of `add` (SXTAB16 with rotation). */
static inline int16x2_t sxtab16_ror8(int16x2_t add, uint32_t v) {
  int16x2_t r;
  __asm__("sxtab16 %0, %1, %2, ror #8" : "=r"(r) : "r"(add), "r"(v));
  return r;
}

/* acc + the four products of the widened lhs pairs x[0] = (x0,x2), x[1] = (x1,x3) with the
 * rhs word w. */
static inline int32_t mac4(int32_t acc, const int16x2_t *x, uint32_t w) {
  acc = __smlad(x[0], __sxtb16((int8x4_t)w), acc);
  return __smlad(x[1], sxtb16_ror8(w), acc);
}

/* Widen `len` (a multiple of 4) lhs bytes: xw[2i], xw[2i+1] from the word at x + 4i. */
static void widen(int16x2_t *xw, const int8_t *x, uint32_t len, int16x2_t aa) {
  for (uint32_t i = 0; i < len; i += 4, xw += 2) {
    const uint32_t v = load4(x + i);
    xw[0] = __sxtab16(aa, (int8x4_t)v);
    xw[1] = sxtab16_ror8(aa, v);
  }
}

/* d[0..4) += the widened columns xw[0, 2 * words) times four rhs rows `depth` apart from w.
 * One asm loop: GCC 12 at -Os spills this loop's 13 live values (four accumulators, the
 * lhs pair, two temporaries, five pointers and strides); here each 16 MACs cost 23
 * instructions: LDRD of the lhs pairs, per row LDR (row 0/2 post-incremented, row 1/3 at
 * +depth), SXTB16, SXTB16 ROR #8, two SMLADs, then CMP and BNE. */
__attribute__((noinline)) static void dots4_dsp(const int16x2_t *xw, uint32_t words, const int8_t *w, uint32_t depth,
                                               int32_t *d) {
  if (words == 0) {
    return;
  }
  const int16x2_t *end = xw + 2 * words;
  const int8_t *w2 = w + 2 * depth;
  int32_t d0 = d[0], d1 = d[1], d2 = d[2], d3 = d[3];
  uint32_t x02, x13, t0, t1;
  __asm__(
      "1:\n\t"
      "ldrd   %[x02], %[x13], [%[xw]], #8\n\t"
      "ldr    %[t0], [%[w], %[k]]\n\t"
      "sxtb16 %[t1], %[t0]\n\t"
      "smlad  %[d1], %[x02], %[t1], %[d1]\n\t"
      "sxtb16 %[t0], %[t0], ror #8\n\t"
      "smlad  %[d1], %[x13], %[t0], %[d1]\n\t"
      "ldr    %[t0], [%[w]], #4\n\t"
      "sxtb16 %[t1], %[t0]\n\t"
      "smlad  %[d0], %[x02], %[t1], %[d0]\n\t"
      "sxtb16 %[t0], %[t0], ror #8\n\t"
      "smlad  %[d0], %[x13], %[t0], %[d0]\n\t"
      "ldr    %[t0], [%[w2], %[k]]\n\t"
      "sxtb16 %[t1], %[t0]\n\t"
      "smlad  %[d3], %[x02], %[t1], %[d3]\n\t"
      "sxtb16 %[t0], %[t0], ror #8\n\t"
      "smlad  %[d3], %[x13], %[t0], %[d3]\n\t"
      "ldr    %[t0], [%[w2]], #4\n\t"
      "sxtb16 %[t1], %[t0]\n\t"
      "smlad  %[d2], %[x02], %[t1], %[d2]\n\t"
      "sxtb16 %[t0], %[t0], ror #8\n\t"
      "smlad  %[d2], %[x13], %[t0], %[d2]\n\t"
      "cmp    %[xw], %[end]\n\t"
      "bne    1b"
      : [d0] "+r"(d0), [d1] "+r"(d1), [d2] "+r"(d2), [d3] "+r"(d3), [xw] "+r"(xw), [w] "+r"(w), [w2] "+r"(w2),
        [x02] "=&r"(x02), [x13] "=&r"(x13), [t0] "=&r"(t0), [t1] "=&r"(t1)
      : [end] "r"(end), [k] "r"(depth)
      : "cc", "memory");
  d[0] = d0, d[1] = d1, d[2] = d2, d[3] = d3;
}

/* d[0..count) += the same for count (1..3) rows, in C: two rows, then one. */
static void dots_few_dsp(const int16x2_t *xw, uint32_t words, const int8_t *w, uint32_t depth, uint32_t count,
                         int32_t *d) {
  if (count >= 2) {
    const int8_t *w1 = w + depth;
    int32_t d0 = d[0], d1 = d[1];
    for (uint32_t j = 0; j < words; j++) {
      d0 = mac4(d0, xw + 2 * j, load4(w + 4 * j));
      d1 = mac4(d1, xw + 2 * j, load4(w1 + 4 * j));
    }
    d[0] = d0, d[1] = d1;
    w += 2 * depth, d += 2, count -= 2;
  }
  if (count == 1) {
    int32_t d0 = d[0];
    for (uint32_t j = 0; j < words; j++) {
      d0 = mac4(d0, xw + 2 * j, load4(w + 4 * j));
    }
    d[0] = d0;
  }
}

void tp_s8_matmul_dsp(const tp_s8_matmul *p, const int8_t *lhs, const int8_t *rhs, const int32_t *bias,
                      int8_t *out) {
  int16x2_t xw[CHUNK / 2] __attribute__((aligned(8)));
  const uint32_t depth = p->depth, body = depth & ~3u;
  const int32_t a = p->lhs_offset;
  const int16x2_t aa = (int16x2_t)(((uint32_t)a << 16) | ((uint32_t)a & 0xffffu)); /* a in both lanes */
  for (uint32_t m = 0; m < p->rows; m++, lhs += depth) {
    const int64_t row_term = p->rhs_offset != 0 ? (int64_t)p->rhs_offset * row_sum(lhs, depth, a) : 0;
    bool widened = false; /* xw holds the whole row (body <= CHUNK) */
    for (uint32_t n = 0; n < p->cols; n += BLOCK) {
      const uint32_t count = p->cols - n < BLOCK ? p->cols - n : BLOCK;
      const int8_t *w = rhs + n * depth;
      int32_t d[BLOCK] = {0, 0, 0, 0};
      for (uint32_t c = 0; c < body; c += CHUNK) {
        const uint32_t len = body - c < CHUNK ? body - c : CHUNK;
        if (!widened) {
          widen(xw, lhs + c, len, aa);
          widened = body <= CHUNK;
        }
        if (count == BLOCK) {
          dots4_dsp(xw, len >> 2, w + c, depth, d);
        } else {
          dots_few_dsp(xw, len >> 2, w + c, depth, count, d);
        }
      }
      for (uint32_t i = 0; i < count; i++) {
        uint32_t s = (uint32_t)d[i];
        for (uint32_t k = body; k < depth; k++) { /* the last depth % 4 columns */
          s += (uint32_t)((lhs[k] + a) * w[i * depth + k]);
        }
        *out++ = finish(p, s, row_term, bias != NULL ? bias[n + i] : 0);
      }
    }
  }
}

#endif /* TP_S8_MATMUL_DSP */

/* --- Helium: VMLADAVA.S8, 16 products an instruction. ---
 * Full vectors run unpredicated; the last depth % 16 columns are one VCTP8-predicated step
 * (zeroing loads: inactive lanes read nothing and add 0), never a scalar loop. VMLADAVA and
 * VADDVA accumulate into even registers only, so blocks keep at most four accumulators:
 * four rhs rows when a = 0 (quantized_linear's kernel_sum mode, weights symmetric), else two
 * rows, each with its weight sum (dot = x . w + a * sum w). */
#if TP_S8_MATMUL_MVE

/* d[0..4) = x . w_i for four rows `depth` apart (a = 0). */
__attribute__((noinline)) static void dots4_mve(const int8_t *x, const int8_t *w, uint32_t depth, uint32_t *d) {
  const int8_t *w1 = w + depth, *w2 = w1 + depth, *w3 = w2 + depth;
  int32_t d0 = 0, d1 = 0, d2 = 0, d3 = 0;
  for (uint32_t j = depth >> 4; j > 0; j--) {
    const int8x16_t xv = vldrbq_s8(x);
    d0 = vmladavaq_s8(d0, xv, vldrbq_s8(w));
    d1 = vmladavaq_s8(d1, xv, vldrbq_s8(w1));
    d2 = vmladavaq_s8(d2, xv, vldrbq_s8(w2));
    d3 = vmladavaq_s8(d3, xv, vldrbq_s8(w3));
    x += 16, w += 16, w1 += 16, w2 += 16, w3 += 16;
  }
  if ((depth & 15u) != 0) {
    const mve_pred16_t p = vctp8q(depth & 15u);
    const int8x16_t xv = vldrbq_z_s8(x, p);
    d0 = vmladavaq_s8(d0, xv, vldrbq_z_s8(w, p));
    d1 = vmladavaq_s8(d1, xv, vldrbq_z_s8(w1, p));
    d2 = vmladavaq_s8(d2, xv, vldrbq_z_s8(w2, p));
    d3 = vmladavaq_s8(d3, xv, vldrbq_z_s8(w3, p));
  }
  d[0] = (uint32_t)d0, d[1] = (uint32_t)d1, d[2] = (uint32_t)d2, d[3] = (uint32_t)d3;
}

/* d[0..2) = x . w_i + a * sum w_i for two rows `depth` apart. */
__attribute__((noinline)) static void dots2_mve(const int8_t *x, const int8_t *w, uint32_t depth, int32_t a, uint32_t *d) {
  const int8_t *w1 = w + depth;
  int32_t d0 = 0, d1 = 0, s0 = 0, s1 = 0;
  for (uint32_t j = depth >> 4; j > 0; j--) {
    const int8x16_t xv = vldrbq_s8(x), v0 = vldrbq_s8(w), v1 = vldrbq_s8(w1);
    d0 = vmladavaq_s8(d0, xv, v0), s0 = vaddvaq_s8(s0, v0);
    d1 = vmladavaq_s8(d1, xv, v1), s1 = vaddvaq_s8(s1, v1);
    x += 16, w += 16, w1 += 16;
  }
  if ((depth & 15u) != 0) {
    const mve_pred16_t p = vctp8q(depth & 15u);
    const int8x16_t xv = vldrbq_z_s8(x, p), v0 = vldrbq_z_s8(w, p), v1 = vldrbq_z_s8(w1, p);
    d0 = vmladavaq_s8(d0, xv, v0), s0 = vaddvaq_s8(s0, v0);
    d1 = vmladavaq_s8(d1, xv, v1), s1 = vaddvaq_s8(s1, v1);
  }
  d[0] = (uint32_t)d0 + (uint32_t)a * (uint32_t)s0, d[1] = (uint32_t)d1 + (uint32_t)a * (uint32_t)s1;
}

/* d[0] = x . w + a * sum w. */
__attribute__((noinline)) static void dots1_mve(const int8_t *x, const int8_t *w, uint32_t depth, int32_t a, uint32_t *d) {
  int32_t d0 = 0, s0 = 0;
  for (uint32_t k = 0; k < depth; k += 16) {
    const mve_pred16_t p = vctp8q(depth - k); /* all lanes but in the last step */
    const int8x16_t v = vldrbq_z_s8(w + k, p);
    d0 = vmladavaq_s8(d0, vldrbq_z_s8(x + k, p), v), s0 = vaddvaq_s8(s0, v);
  }
  d[0] = (uint32_t)d0 + (uint32_t)a * (uint32_t)s0;
}

static void dots_mve(const int8_t *x, const int8_t *w, uint32_t depth, int32_t a, uint32_t count, uint32_t *d) {
  if (a == 0 && count == BLOCK) {
    dots4_mve(x, w, depth, d);
    return;
  }
  for (; count >= 2; count -= 2, w += 2 * depth, d += 2) {
    dots2_mve(x, w, depth, a, d);
  }
  if (count == 1) {
    dots1_mve(x, w, depth, a, d);
  }
}

static int32_t row_sum_mve(const int8_t *x, uint32_t depth, int32_t a) {
  int32_t s = (int32_t)depth * a;
  for (uint32_t k = 0; k < depth; k += 16) {
    s = vaddvaq_s8(s, vldrbq_z_s8(x + k, vctp8q(depth - k)));
  }
  return s;
}

void tp_s8_matmul_mve(const tp_s8_matmul *p, const int8_t *lhs, const int8_t *rhs, const int32_t *bias,
                      int8_t *out) {
  matmul(p, lhs, rhs, bias, out, dots_mve, row_sum_mve);
}

#endif /* TP_S8_MATMUL_MVE */

void tp_s8_matmul_run(const tp_s8_matmul *p, const int8_t *lhs, const int8_t *rhs, const int32_t *bias,
                      int8_t *out) {
#if TP_S8_MATMUL_MVE
  tp_s8_matmul_mve(p, lhs, rhs, bias, out);
#elif TP_S8_MATMUL_DSP
  tp_s8_matmul_dsp(p, lhs, rhs, bias, out);
#else
  tp_s8_matmul_portable(p, lhs, rhs, bias, out);
#endif
}
