/* Register-blocked float32 matrix product with an epilogue (see gemm.h).
 *
 * One row of z at a time, its columns in blocks of 8, then one by one: a block's sums stay in
 * registers for the whole k loop, each x element is loaded once per block, and each y element
 * once. The k loop is the innermost, so every sum is accumulated in increasing k.
 */
#include "gemm.h"

#include <math.h>

#include "nn_util.h"

void tp_gemm_set_clamp(tp_gemm *g, const tp_clamp *clamp) {
  g->clamped = clamp != NULL;
  if (clamp != NULL) {
    g->clamp = *clamp;
  }
}

/* Stores `count` sums through the epilogue; b is the first one's bias (NULL: none). The
 * settings are copied to locals once (stores to z could alias g as far as C knows), and an
 * infinite bound is not compared (relu has no upper one). */
static void store(const tp_gemm *g, float *z, const float *sums, uint32_t count, const float *b) {
  const uint32_t step = g->bias_col;
  const bool scaled = g->scaled;
  const bool has_lo = g->clamped && g->clamp.lo != -INFINITY, has_hi = g->clamped && g->clamp.hi != INFINITY;
  const float alpha = g->alpha, beta = g->beta, lo = g->clamp.lo, hi = g->clamp.hi;
  if (b != NULL && step == 1 && !scaled && !has_hi) { /* Linear + relu (or no activation) */
    for (uint32_t c = 0; c < count; c++) {
      const float v = sums[c] + b[c];
      z[c] = has_lo && v < lo ? lo : v;
    }
    return;
  }
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
  for (uint32_t k = g->n; k != 0; k--, y += y_row) {
    const float a = *x++;
    TP_MAC(s0, a, y[0]);
    TP_MAC(s1, a, y[1]);
    TP_MAC(s2, a, y[2]);
    TP_MAC(s3, a, y[3]);
    TP_MAC(s4, a, y[4]);
    TP_MAC(s5, a, y[5]);
    TP_MAC(s6, a, y[6]);
    TP_MAC(s7, a, y[7]);
  }
  z[0] = s0, z[1] = s1, z[2] = s2, z[3] = s3, z[4] = s4, z[5] = s5, z[6] = s6, z[7] = s7;
  store(g, z, z, 8, b);
}

/* One column: a dot product of x with a strided column of y. */
static TP_NN_NOINLINE float sum1(const float *x, const float *y, uint32_t n, uint32_t y_row) {
  float s = 0.0f;
  for (uint32_t k = n; k != 0; k--, y += y_row) {
    TP_MAC(s, *x++, *y);
  }
  return s;
}

void tp_gemm_f32(const tp_gemm *g, float *z, const float *x, const float *y, const float *bias) {
  const uint32_t n = g->n, p = g->p, y_row = g->y_row, bias_col = g->bias_col;
  const float *b_row = g->has_bias ? bias : NULL;
  float sums[8];
  for (uint32_t i = 0; i < g->m; i++, x += g->x_row, z += p) {
    const float *b = b_row;
    uint32_t j = 0;
    for (; j + 8 <= p; j += 8) {
      block8(g, z + j, x, y + j, b);
      b = b != NULL ? b + 8 * bias_col : NULL;
    }
    for (; j < p; j++) {
      sums[0] = sum1(x, y + j, n, y_row);
      store(g, z + j, sums, 1, b);
      b = b != NULL ? b + bias_col : NULL;
    }
    b_row = b_row != NULL ? b_row + g->bias_row : NULL;
  }
}
