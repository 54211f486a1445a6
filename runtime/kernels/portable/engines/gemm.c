/* Register-blocked float32 matrix product with an epilogue (see gemm.h).
 *
 * Two rows of z at a time when the firmware links the extension that does that
 * (extensions/gemm_rows.c: Arm FPUs, programs with products of two or more rows); then one row at
 * a time, its columns in blocks of 8, then one by one: a block's sums stay in
 * registers for the whole k loop, each x element is loaded once per block, and each y element
 * once. The k loop is the innermost, so every sum is accumulated in increasing k.
 */
#include "portable/engines/gemm.h"

#include <math.h>

#include "util/nn.h"

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
  tp_gemm_store(g, z, z, 8, b);
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


void tp_gemm_f32(const tp_gemm *g, float *z, const float *x, const float *y, const float *bias) {
  const uint32_t n = g->n, p = g->p, y_row = g->y_row, bias_col = g->bias_col;
  const float *b_row = bias;
  uint32_t i = 0;
  if (tp_gemm_f32_pairs != NULL && g->m >= 2 && n != 0 && p >= 4) {
    i = g->m & ~1u;
    tp_gemm_f32_pairs(g, z, x, y, bias);
    x += i * g->x_row;
    z += i * p;
    b_row = bias != NULL ? bias + i * g->bias_row : NULL;
  }
  for (; i < g->m; i++, x += g->x_row, z += p) {
    const float *b = b_row;
    uint32_t j = 0;
    for (; j + 8 <= p; j += 8) {
      block8(g, z + j, x, y + j, b);
      b = b != NULL ? b + 8 * bias_col : NULL;
    }
    for (; j < p; j++) {
      const float sum = sum1(x, y + j, n, y_row);
      tp_gemm_store(g, z + j, &sum, 1, b);
      b = b != NULL ? b + bias_col : NULL;
    }
    b_row = b_row != NULL ? b_row + g->bias_row : NULL;
  }
}
