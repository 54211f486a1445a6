/* The int8 matrix product behind cortex_m::quantized_linear and quantized_batch_matmul:
 * rows of an int8 lhs times rows of an int8 rhs (rhs "transposed": both are read along k),
 * with offsets, a per-column int32 term, CMSIS requantization and an activation clamp.
 *
 * For lhs row m (x, `depth` elements) and rhs row n (w), with a = lhs_offset, b = rhs_offset:
 *
 *     total[m][n] = sum_k (x[k] + a) * (w[k] + b) + bias[n]        (bias NULL: 0)
 *     out[m][n]   = clamp(requantize(total) + out_offset, act_min, act_max)
 *
 * total is an int32 computed modulo 2^32 (torch's int32 arithmetic), or, when `wide`, an
 * int64 (quantized_linear's kernel_sum mode, whose reference sums in int64; prepare then
 * sets a = 0 and keeps depth < 2^17, so the int32 dot product below is exact).
 *
 * Every routine computes it as
 *
 *     dot  = sum_k (x[k] + a) * w[k]          (int32, modulo 2^32)
 *     total = dot + b * sum_k (x[k] + a) + bias[n]
 *
 * so b (0 for symmetric weights) costs one multiply-add per output, the row sum being taken
 * once per lhs row. The routines differ only in how they form dot:
 *  - portable C: four rhs rows at a time, each x[k] + a loaded once for the four;
 *  - Armv7E-M / Armv8-M DSP: the lhs row is widened once (256 columns at a time, on the
 *    stack) into int16 pairs with the offset added, SXTAB16 of each word and of the word
 *    rotated by 8: (x0+a, x2+a), (x1+a, x3+a); a rhs word w pairs with them as SXTB16(w) and
 *    SXTB16(w, ROR 8), two SMLADs adding its four products: no weight re-layout. Four rhs
 *    rows share each LDRD of lhs pairs: 23 instructions per 16 MACs in the inner loop (a row
 *    longer than 256 columns is widened as it is read instead, 25 per 16, rather than a chunk
 *    again for every block of four rows). A row's full blocks, when it has no tail and the
 *    requantization is a right shift of at most 21 with |out offset| <= 256, go through one
 *    asm routine (fused4): 21 instructions per 16 MACs plus about 60 per block of four outs,
 *    overflow found by the Q flag; a row longer than 256 columns is widened a chunk at a time
 *    for 8 blocks at once (their sums kept between chunks, 128 bytes of stack);
 *  - Helium (MVE): VMLADAVA.S8 adds 16 products x[k] * w[k] an instruction, four rhs rows at
 *    a time when a = 0; otherwise two rows, each with VADDVA.S8 of its weights
 *    (dot = x . w + a * sum w). Full vectors run unpredicated, the last depth % 16 columns
 *    are one VCTP8-predicated step with zeroing loads: no scalar tail. When a = 0 and the shift
 *    is a right shift, a row's full blocks run in one loop (fused_mve) with a vector epilogue.
 * int32 sums are exact modulo 2^32 in any order, so all three give identical outputs. On the
 * DSP and Helium cores a block of four outputs whose totals lie in [-2^30, 2^30), with a right
 * shift, is requantized in one step (SMMULR / VQRDMULH and a rounding shift: the same
 * arithmetic as tp_requantize, without the wide total's 64-bit path).
 */
#ifndef TINYPTE_KERNELS_CORTEX_M_ENGINES_S8_MATMUL_H
#define TINYPTE_KERNELS_CORTEX_M_ENGINES_S8_MATMUL_H

#include <stdbool.h>
#include <stdint.h>

#include "tinypte/status.h"

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
#define TP_S8_MATMUL_MVE 1
#endif
#if defined(__ARM_FEATURE_DSP)
#define TP_S8_MATMUL_DSP 1
#endif

/* What prepare fixes about one product (see above). */
typedef struct tp_s8_matmul {
  uint32_t rows;       /* lhs rows (M) */
  uint32_t cols;       /* rhs rows: outputs per lhs row (N) */
  uint32_t depth;      /* elements per row (K) */
  int32_t lhs_offset;  /* a: -255..255 */
  int32_t rhs_offset;  /* b: -255..255 */
  int32_t multiplier;  /* requantization (tp_requantize) */
  int32_t shift;       /* -31..30 */
  int32_t out_offset;  /* added after requantizing (int32, wrapping) */
  int32_t act_min;     /* clamp, within int8 */
  int32_t act_max;
  bool wide;           /* total in int64 (see above) */
} tp_s8_matmul;

/** out[m * cols + n] for the product `p` describes: lhs is rows x depth, rhs cols x depth
 *  (row-major, any alignment), bias NULL or cols int32 values. The fastest routine the
 *  target has. */
void tp_s8_matmul_run(const tp_s8_matmul *p, const int8_t *lhs, const int8_t *rhs, const int32_t *bias,
                      int8_t *out);

/* The routines themselves (tests compare them): portable C everywhere, the others where the
 * target has the extension. */
void tp_s8_matmul_portable(const tp_s8_matmul *p, const int8_t *lhs, const int8_t *rhs, const int32_t *bias,
                           int8_t *out);
#if TP_S8_MATMUL_DSP
void tp_s8_matmul_dsp(const tp_s8_matmul *p, const int8_t *lhs, const int8_t *rhs, const int32_t *bias,
                      int8_t *out);
#endif
#if TP_S8_MATMUL_MVE
void tp_s8_matmul_mve(const tp_s8_matmul *p, const int8_t *lhs, const int8_t *rhs, const int32_t *bias,
                      int8_t *out);
#endif

#endif /* TINYPTE_KERNELS_CORTEX_M_ENGINES_S8_MATMUL_H */
