/* Extension of the float32 matrix product (portable/engines/gemm.h): two rows of z at a time,
 * in one assembly loop per block of 8 (then 4) columns, on Arm FPUs (TP_NN_VLDM). tp_gemm_f32
 * calls tp_gemm_f32_pairs through a weak reference; this file is linked when a kernel registry
 * lists tinypte::gemm_rows.ext, which it does for programs with a float32 product of two or more
 * rows: a convolution's 1 x 1 product, addmm/mm/bmm with two or more rows
 * (python/tinypte/inspect_pte/extensions.py). Without it (sine's 1 x n products) a product runs a
 * row at a time, the same sums in the same order, and the firmware is smaller by the loop.
 *
 * Each sum is accumulated exactly as the one-row loop does (from 0, one vmla.f32 per k in
 * increasing k: multiply rounded, then add rounded), so results are bit-identical to it
 * (runtime/kernels/tests/f32_gemm_check.c checks that on every board). */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "kernel_util.h"
#include "portable/engines/gemm.h"
#include "util/nn.h"

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
      tp_gemm_store(g, z0, z0, count, b0 + j * bias_col);
      tp_gemm_store(g, z1, z1, count, b1 + j * bias_col);
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
    tp_gemm_store(g, z + j, &s0, 1, b0 != NULL ? b0 + j * bias_col : NULL);
    tp_gemm_store(g, z + p + j, &s1, 1, b1 != NULL ? b1 + j * bias_col : NULL);
  }
}

/* The rows of z two at a time (all but an odd last one). */
void tp_gemm_f32_pairs(const tp_gemm *g, float *z, const float *x, const float *y, const float *b) {
  for (uint32_t i = 0; i + 2 <= g->m; i += 2, x += 2 * g->x_row, z += 2 * g->p) {
    rows2(g, z, x, y, b, b != NULL ? b + g->bias_row : NULL);
    b = b != NULL ? b + 2 * g->bias_row : NULL;
  }
}
#endif

/* The extension's registry entry: what makes firmware link this file. Never a program's operator. */
TP_KERNEL(tinypte, gemm_rows, ext, uint8_t) {
  (void)call;
  (void)state;
  (void)run;
  return TP_ERR_UNSUPPORTED;
}
