/* Register-blocked float32 matrix product with an epilogue (see gemm.h).
 *
 * One row of z at a time, its columns in blocks of 8, then one by one: a block's sums stay in
 * registers for the whole k loop, each x element is loaded once per block, and each y element
 * once. The k loop is the innermost, so every sum is accumulated in increasing k.
 */
#include "portable/engines/gemm.h"

#include <math.h>

#include "util/nn.h"

/* Stores `count` sums through the epilogue; b is the first one's bias (NULL: none). The
 * settings are copied to locals once (stores to z could alias g as far as C knows), and an
 * infinite bound is not compared (relu has no upper one). */
static void store(const tp_gemm *g, float *z, const float *sums, uint32_t count, const float *b) {
  const uint32_t step = g->bias_col;
  const bool scaled = g->scaled;
  const bool has_lo = g->clamped && g->clamp.lo != -INFINITY, has_hi = g->clamped && g->clamp.hi != INFINITY;
  const float alpha = g->alpha, beta = g->beta, lo = g->clamp.lo, hi = g->clamp.hi;
  for (uint32_t c = 0; c < count; c++) {
    float v = sums[c];
    if (b != NULL) {
      v = scaled ? v * alpha + *b * beta : v + *b;
      b += step;
    }
    if (has_lo) {
      v = v < lo ? lo : v;
    }
    if (has_hi) {
      v = hi < v ? hi : v;
    }
    z[c] = v;
  }
}

/* z[0..8) = the epilogue of x[k] * y[k][0..8) summed over g->n values of k; b is z[0]'s
 * bias or NULL. */
static TP_NN_NOINLINE void block8(const tp_gemm *g, float *z, const float *x, const float *y, const float *b) {
  const uint32_t y_row = g->y_row;
  float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f, s4 = 0.0f, s5 = 0.0f, s6 = 0.0f, s7 = 0.0f;
  /* a loop tested at its bottom: one compare-and-branch per k */
  uint32_t k = g->n;
  if (k != 0) {
    do {
      const float a = *x++;
#if TP_NN_VLDM
      /* the 8 weights of this k in one vldm: one instruction instead of eight */
      register float y0 __asm__("s16"), y1 __asm__("s17"), y2 __asm__("s18"), y3 __asm__("s19");
      register float y4 __asm__("s20"), y5 __asm__("s21"), y6 __asm__("s22"), y7 __asm__("s23");
      __asm__("vldmia %8, {s16-s23}"
              : "=t"(y0), "=t"(y1), "=t"(y2), "=t"(y3), "=t"(y4), "=t"(y5), "=t"(y6), "=t"(y7)
              : "r"(y), "m"(*(const float(*)[8])y));
      TP_MAC(s0, a, y0);
      TP_MAC(s1, a, y1);
      TP_MAC(s2, a, y2);
      TP_MAC(s3, a, y3);
      TP_MAC(s4, a, y4);
      TP_MAC(s5, a, y5);
      TP_MAC(s6, a, y6);
      TP_MAC(s7, a, y7);
#else
      TP_MAC(s0, a, y[0]);
      TP_MAC(s1, a, y[1]);
      TP_MAC(s2, a, y[2]);
      TP_MAC(s3, a, y[3]);
      TP_MAC(s4, a, y[4]);
      TP_MAC(s5, a, y[5]);
      TP_MAC(s6, a, y[6]);
      TP_MAC(s7, a, y[7]);
#endif
      y += y_row;
    } while (--k != 0);
  }
#if TP_NN_VLDM
  if (b != NULL && g->bias_col == 1 && !g->scaled && (!g->clamped || g->clamp.hi == INFINITY)) {
    /* Linear (+ relu-like clamp): the 8 biases in one vldm, added and clamped in registers */
    register float b0 __asm__("s16"), b1 __asm__("s17"), b2 __asm__("s18"), b3 __asm__("s19");
    register float b4 __asm__("s20"), b5 __asm__("s21"), b6 __asm__("s22"), b7 __asm__("s23");
    __asm__("vldmia %8, {s16-s23}"
            : "=t"(b0), "=t"(b1), "=t"(b2), "=t"(b3), "=t"(b4), "=t"(b5), "=t"(b6), "=t"(b7)
            : "r"(b), "m"(*(const float(*)[8])b));
    s0 += b0, s1 += b1, s2 += b2, s3 += b3, s4 += b4, s5 += b5, s6 += b6, s7 += b7;
    if (g->clamped) {
      const float lo = g->clamp.lo;
      s0 = s0 < lo ? lo : s0, s1 = s1 < lo ? lo : s1, s2 = s2 < lo ? lo : s2, s3 = s3 < lo ? lo : s3;
      s4 = s4 < lo ? lo : s4, s5 = s5 < lo ? lo : s5, s6 = s6 < lo ? lo : s6, s7 = s7 < lo ? lo : s7;
    }
    z[0] = s0, z[1] = s1, z[2] = s2, z[3] = s3, z[4] = s4, z[5] = s5, z[6] = s6, z[7] = s7;
    return;
  }
#endif
  z[0] = s0, z[1] = s1, z[2] = s2, z[3] = s3, z[4] = s4, z[5] = s5, z[6] = s6, z[7] = s7;
  store(g, z, z, 8, b);
}

/* One column: a dot product of x with a strided column of y. A contiguous column (y_row 1, a
 * product with one output column) is taken four k at a time, the same sum in the same order
 * with a quarter of the loop's bookkeeping. */
static TP_NN_NOINLINE float sum1(const float *x, const float *y, uint32_t n, uint32_t y_row) {
  float s = 0.0f;
  uint32_t k = n;
  if (y_row == 1) {
    for (; k >= 4; k -= 4) {
#if TP_NN_VLDM
      /* four x and four y in two vldm (s8-s15: no callee-saved registers to push) */
      register float x0 __asm__("s8"), x1 __asm__("s9"), x2 __asm__("s10"), x3 __asm__("s11");
      register float y0 __asm__("s12"), y1 __asm__("s13"), y2 __asm__("s14"), y3 __asm__("s15");
      __asm__("vldmia %0!, {s8-s11}\n\tvldmia %1!, {s12-s15}"
              : "+r"(x), "+r"(y), "=t"(x0), "=t"(x1), "=t"(x2), "=t"(x3), "=t"(y0), "=t"(y1), "=t"(y2), "=t"(y3)
              : "m"(*(const float(*)[4])x), "m"(*(const float(*)[4])y));
#else
      const float x0 = x[0], x1 = x[1], x2 = x[2], x3 = x[3], y0 = y[0], y1 = y[1], y2 = y[2], y3 = y[3];
      x += 4, y += 4;
#endif
      TP_MAC(s, x0, y0);
      TP_MAC(s, x1, y1);
      TP_MAC(s, x2, y2);
      TP_MAC(s, x3, y3);
    }
  }
  for (; k != 0; k--, y += y_row) {
    TP_MAC(s, *x++, *y);
  }
  return s;
}

#if TP_NN_VLDM
/* Zeros for the accumulators: one vldmia clears sixteen registers. */
static const float zeros16[16] = {0.0f};

/* One k step of a two-row block: the x value in register w times the y values in s16.. added
 * to the row's sums a0.. (one vmla.f32 each: multiply rounded, then add rounded). */
#define ROW8(a0, a1, a2, a3, a4, a5, a6, a7, w)                                                         \
  "vmla.f32 " a0 ", " w ", s16\n\t"                                                                    \
  "vmla.f32 " a1 ", " w ", s17\n\t"                                                                    \
  "vmla.f32 " a2 ", " w ", s18\n\t"                                                                    \
  "vmla.f32 " a3 ", " w ", s19\n\t"                                                                    \
  "vmla.f32 " a4 ", " w ", s20\n\t"                                                                    \
  "vmla.f32 " a5 ", " w ", s21\n\t"                                                                    \
  "vmla.f32 " a6 ", " w ", s22\n\t"                                                                    \
  "vmla.f32 " a7 ", " w ", s23\n\t"
#define ROW4(a0, a1, a2, a3, w)                                                                         \
  "vmla.f32 " a0 ", " w ", s16\n\t"                                                                    \
  "vmla.f32 " a1 ", " w ", s17\n\t"                                                                    \
  "vmla.f32 " a2 ", " w ", s18\n\t"                                                                    \
  "vmla.f32 " a3 ", " w ", s19\n\t"
#define R0_8(w) ROW8("s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", w)
#define R1_8(w) ROW8("s8", "s9", "s10", "s11", "s12", "s13", "s14", "s15", w)
#define R0_4(w) ROW4("s0", "s1", "s2", "s3", w)
#define R1_4(w) ROW4("s8", "s9", "s10", "s11", w)

/* The sums of two rows x 8 (or 4) columns, left in s0-s7 and s8-s15 (s0-s3, s8-s11): x0, x1
 * the two rows of x, y the first column's k = 0 value, n values of k in increasing order (an odd
 * first one alone, then two at a time), y_bytes between k rows of y. Each sum starts at 0 and
 * takes one vmla.f32 (multiply rounded, then add rounded) per k. */
#define BLOCK2_LOOP(LOAD_Y, R0, R1)                                                                    \
  "vldmia %[zeros], {s0-s15}\n\t"                                                                      \
  "tst %[n], #1\n\t"                                                                                  \
  "beq 2f\n\t"                                                                                        \
  "vldmia %[x0]!, {s24}\n\t"                                                                          \
  "vldmia %[x1]!, {s26}\n\t"                                                                          \
  LOAD_Y "add %[y], %[y], %[row]\n\t" R0("s24") R1("s26")                                             \
  "2:\n\t"                                                                                            \
  "lsrs %[n], %[n], #1\n\t"                                                                           \
  "beq 3f\n\t"                                                                                        \
  "1:\n\t"                                                                                            \
  "vldmia %[x0]!, {s24-s25}\n\t"                                                                      \
  "vldmia %[x1]!, {s26-s27}\n\t"                                                                      \
  LOAD_Y "add %[y], %[y], %[row]\n\t" R0("s24") R1("s26")                                             \
  LOAD_Y "add %[y], %[y], %[row]\n\t" R0("s25") R1("s27")                                             \
  "subs %[n], %[n], #1\n\t"                                                                           \
  "bne 1b\n\t"                                                                                        \
  "3:\n\t"

/* The epilogue in registers, steered by the bits of %[mode]: 1 adds s16 (row 0's bias) to row 0's
 * sums and s17 to row 1's; 2 applies the lower bound s18 (x = lo > x ? lo : x: x < lo ? lo : x
 * with NaN passing); 4 the upper bound s19 (x = x > hi ? hi : x). */
#define ADD(x, b) "vadd.f32 " x ", " x ", " b "\n\t"
#define LO(x) "vcmp.f32 s18, " x "\n\tvmrs APSR_nzcv, fpscr\n\tvselgt.f32 " x ", s18, " x "\n\t"
#define HI(x) "vcmp.f32 " x ", s19\n\tvmrs APSR_nzcv, fpscr\n\tvselgt.f32 " x ", s19, " x "\n\t"
#define EACH4(F, a, b, c, d) F(a) F(b) F(c) F(d)
#define EACH4B(F, a, b, c, d, r) F(a, r) F(b, r) F(c, r) F(d, r)
#define SUMS_R0_LO(F) EACH4(F, "s0", "s1", "s2", "s3")
#define SUMS_R0_HI(F) EACH4(F, "s4", "s5", "s6", "s7")
#define SUMS_R1_LO(F) EACH4(F, "s8", "s9", "s10", "s11")
#define SUMS_R1_HI(F) EACH4(F, "s12", "s13", "s14", "s15")
#define SUMS8(F) SUMS_R0_LO(F) SUMS_R0_HI(F) SUMS_R1_LO(F) SUMS_R1_HI(F)
#define SUMS4(F) SUMS_R0_LO(F) SUMS_R1_LO(F)
#define BIAS8                                                                   \
  EACH4B(ADD, "s0", "s1", "s2", "s3", "s16") EACH4B(ADD, "s4", "s5", "s6", "s7", "s16") \
  EACH4B(ADD, "s8", "s9", "s10", "s11", "s17") EACH4B(ADD, "s12", "s13", "s14", "s15", "s17")
#define BIAS4 EACH4B(ADD, "s0", "s1", "s2", "s3", "s16") EACH4B(ADD, "s8", "s9", "s10", "s11", "s17")
#define EPILOGUE(BIAS, SUMS, R0, R1)                                                                   \
  "vldmia %[ep], {s16-s19}\n\t"                                                                        \
  "tst %[mode], #1\n\t"                                                                                \
  "beq 4f\n\t" BIAS "4:\n\t"                                                                           \
  "tst %[mode], #2\n\t"                                                                                \
  "beq 5f\n\t" SUMS(LO) "5:\n\t"                                                                       \
  "tst %[mode], #4\n\t"                                                                                \
  "beq 6f\n\t" SUMS(HI) "6:\n\t"                                                                       \
  "vstmia %[z0], {" R0 "}\n\t"                                                                         \
  "vstmia %[z1], {" R1 "}\n\t"

#define BLOCK2_CLOBBERS                                                                                \
  "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "s12", "s13", "s14", "s15", \
      "s16", "s17", "s18", "s19", "s20", "s21", "s22", "s23", "s24", "s25", "s26", "s27", "cc", "memory"

/* z rows i and i + 1, columns [0, p): x0 / x1 the two rows of x, b0 / b1 their first outputs'
 * biases (NULL: none). */
static TP_NN_NOINLINE void rows2(const tp_gemm *g, float *z, const float *x0, const float *y, const float *b0,
                                 const float *b1) {
  const uint32_t p = g->p, row = g->y_row * (uint32_t)sizeof(float), bias_col = g->bias_col;
  /* In registers: no bias, or one per row (a convolution's out channel), not scaled; else the
   * sums go through store's general epilogue. */
  const bool fused = b0 == NULL || (bias_col == 0 && !g->scaled);
  const bool has_lo = g->clamped && g->clamp.lo != -INFINITY, has_hi = g->clamped && g->clamp.hi != INFINITY;
  const uint32_t mode = fused ? (b0 != NULL ? 1u : 0u) | (has_lo ? 2u : 0u) | (has_hi ? 4u : 0u) : 0u;
  const float ep[4] = {b0 != NULL ? *b0 : 0.0f, b1 != NULL ? *b1 : 0.0f, g->clamp.lo, g->clamp.hi};
  uint32_t j = 0;
  for (; j + 4 <= p; j += j + 8 <= p ? 8 : 4) {
    const bool wide = j + 8 <= p;
    const float *a = x0, *c = x0 + g->x_row, *yy = y + j;
    float *z0 = z + j, *z1 = z + p + j;
    uint32_t n = g->n;
    if (wide) {
      __asm__ volatile(BLOCK2_LOOP("vldmia %[y], {s16-s23}\n\t", R0_8, R1_8)
                           EPILOGUE(BIAS8, SUMS8, "s0-s7", "s8-s15")
                       : [x0] "+r"(a), [x1] "+r"(c), [y] "+r"(yy), [n] "+r"(n)
                       : [row] "r"(row), [zeros] "r"(zeros16), [ep] "r"(ep), [mode] "r"(mode), [z0] "r"(z0),
                         [z1] "r"(z1)
                       : BLOCK2_CLOBBERS);
    } else {
      __asm__ volatile(BLOCK2_LOOP("vldmia %[y], {s16-s19}\n\t", R0_4, R1_4)
                           EPILOGUE(BIAS4, SUMS4, "s0-s3", "s8-s11")
                       : [x0] "+r"(a), [x1] "+r"(c), [y] "+r"(yy), [n] "+r"(n)
                       : [row] "r"(row), [zeros] "r"(zeros16), [ep] "r"(ep), [mode] "r"(mode), [z0] "r"(z0),
                         [z1] "r"(z1)
                       : BLOCK2_CLOBBERS);
    }
    if (!fused) { /* the raw sums are stored: the general epilogue */
      const uint32_t count = wide ? 8u : 4u;
      store(g, z0, z0, count, b0 + j * bias_col);
      store(g, z1, z1, count, b1 + j * bias_col);
    }
  }
  for (; j < p; j++) { /* the last columns, one at a time for both rows */
    const float *a = x0, *c = x0 + g->x_row, *yy = y + j;
    float s0 = 0.0f, s1 = 0.0f;
    for (uint32_t k = g->n; k != 0; k--, yy += g->y_row) {
      const float v = *yy;
      TP_MAC(s0, *a++, v);
      TP_MAC(s1, *c++, v);
    }
    store(g, z + j, &s0, 1, b0 != NULL ? b0 + j * bias_col : NULL);
    store(g, z + p + j, &s1, 1, b1 != NULL ? b1 + j * bias_col : NULL);
  }
}

/* The rows of z two at a time (all but an odd last one). */
static TP_NN_NOINLINE void pairs(const tp_gemm *g, float *z, const float *x, const float *y, const float *b) {
  for (uint32_t i = 0; i + 2 <= g->m; i += 2, x += 2 * g->x_row, z += 2 * g->p) {
    rows2(g, z, x, y, b, b != NULL ? b + g->bias_row : NULL);
    b = b != NULL ? b + 2 * g->bias_row : NULL;
  }
}
#endif

void tp_gemm_f32(const tp_gemm *g, float *z, const float *x, const float *y, const float *bias) {
  const uint32_t n = g->n, p = g->p, y_row = g->y_row, bias_col = g->bias_col;
  const float *b_row = bias;
  uint32_t i = 0;
#if TP_NN_VLDM
  if (g->m >= 2 && n != 0 && p >= 4) {
    i = g->m & ~1u;
    pairs(g, z, x, y, bias);
    x += i * g->x_row;
    z += i * p;
    b_row = bias != NULL ? bias + i * g->bias_row : NULL;
  }
#endif
  for (; i < g->m; i++, x += g->x_row, z += p) {
    const float *b = b_row;
    uint32_t j = 0;
    for (; j + 8 <= p; j += 8) {
      block8(g, z + j, x, y + j, b);
      b = b != NULL ? b + 8 * bias_col : NULL;
    }
    for (; j < p; j++) {
      const float sum = sum1(x, y + j, n, y_row);
      store(g, z + j, &sum, 1, b);
      b = b != NULL ? b + bias_col : NULL;
    }
    b_row = b_row != NULL ? b_row + g->bias_row : NULL;
  }
}
