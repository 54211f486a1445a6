/* The float32 matrix product behind addmm, mm, bmm and 1x1 convolution: register-blocked,
 * with an epilogue (bias, addmm's scales, a fused activation) applied as each output is
 * stored.
 *
 * Every output is a float sum over k in increasing order, started from 0 and accumulated one
 * product at a time (multiply rounded, then add rounded: no fused multiply-add), exactly as
 * ExecuTorch's portable kernels compute it; blocking changes which outputs are computed
 * together, not the order of any sum, so results are bit-identical to the reference loop.
 */
#ifndef TINYPTE_KERNELS_ENGINES_GEMM_H
#define TINYPTE_KERNELS_ENGINES_GEMM_H

#include <stdbool.h>
#include <stdint.h>

#include "tinypte/kernel.h"

/* What prepare fixes about one product z[m][p] = x[m][n] @ y[n][p] and its epilogue. */
typedef struct tp_gemm {
  uint32_t m, n, p;
  uint32_t x_row; /* x elements between rows (n for a matrix) */
  uint32_t y_row; /* y elements between k rows (p for a matrix) */
  /* Epilogue, per output z[i][j]: with a bias b (tp_gemm_f32's `bias`, NULL: none),
   * z = sum + b[i * bias_row + j * bias_col] (scaled: z = sum * alpha + b[...] * beta); then
   * the clamp, if any. */
  uint32_t bias_row, bias_col;
  float alpha, beta; /* integer products: integers of at most 2^24 in magnitude (exact in float) */
  bool scaled, clamped;
  uint8_t dtype; /* of x, y, bias and z for tp_gemm_int (engines/dtypes.h) */
  tp_clamp clamp;
} tp_gemm;

/** The product of an m x n matrix by an n x p one (contiguous rows), with the clamp `clamp`
 *  (NULL: none); the bias layout and addmm's scaling are the caller's to set. Inline: kernels
 *  that fill it in at each run pay no call for it. */
static inline void tp_gemm_init(tp_gemm *g, uint32_t m, uint32_t n, uint32_t p, const tp_clamp *clamp) {
  g->m = m;
  g->n = n;
  g->p = p;
  g->x_row = n;
  g->y_row = p;
  g->clamped = clamp != NULL;
  g->clamp = clamp != NULL ? *clamp : (tp_clamp){0.0f, 0.0f};
}

/** z = epilogue(x @ y) for the product `g` describes; bias NULL: no bias. */
void tp_gemm_f32(const tp_gemm *g, float *z, const float *x, const float *y, const float *bias);

/** The rows of z two at a time (all but an odd last one): the extension's (extensions/
 *  gemm_rows.c), NULL when the firmware does not link it; tp_gemm_f32 calls it for m >= 2. */
void tp_gemm_f32_pairs(const tp_gemm *g, float *z, const float *x, const float *y, const float *bias)
    __attribute__((weak));

/** Stores `count` sums through g's epilogue (bias b, NULL: none; addmm's scales; the clamp): gemm_epilogue.c. */
void tp_gemm_store(const tp_gemm *g, float *z, const float *sums, uint32_t count, const float *b);

/** Whether tp_gemm_int (the dtype extension's, engines/dtypes.h) takes the dtype. */
static inline bool tp_gemm_int_dtype(int dtype) {
  return dtype == TP_DTYPE_UINT8 || dtype == TP_DTYPE_INT8 || dtype == TP_DTYPE_INT16 || dtype == TP_DTYPE_INT32 ||
         dtype == TP_DTYPE_INT64;
}

/** x < lo ? lo : x, then hi < x ? hi : x: the fused activation (NaN passes through). */
static inline float tp_clamp_apply(const tp_clamp *c, float x) {
  x = x < c->lo ? c->lo : x;
  return c->hi < x ? c->hi : x;
}

#endif /* TINYPTE_KERNELS_ENGINES_GEMM_H */
