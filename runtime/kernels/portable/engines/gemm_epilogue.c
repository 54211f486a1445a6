/* The float32 matrix product's epilogue (gemm.h): bias, addmm's scales and the clamp applied to
 * sums on their way out. A file of its own because both the product's one-row loop (gemm.c)
 * and its two-row extension (extensions/gemm_rows.c) store through it. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "portable/engines/gemm.h"

/* Stores `count` sums through the epilogue; b is the first one's bias (NULL: none). The
 * settings are copied to locals once (stores to z could alias g as far as C knows), and an
 * infinite bound is not compared (relu has no upper one). */
void tp_gemm_store(const tp_gemm *g, float *z, const float *sums, uint32_t count, const float *b) {
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
