/* On-target check of the float32 matrix product (runtime/kernels/portable/engines/gemm.h) against
 * a scalar loop of its definition, bit for bit: every output summed from 0 over k in increasing
 * order with TP_MAC (the board's multiply-add), then the epilogue (bias per row, per column or
 * none, addmm's scaling, a clamp with either or both bounds). Seeded random shapes cover the
 * two-row blocks of the Arm FPU path (8 and 4 columns, single-column tails, odd depths, odd row
 * counts) and the one-row routines. The two-row loop is an extension (extensions/gemm_rows.c):
 * a reference to its registry entry links it here, and on the Arm FPU boards the check fails
 * when it is missing.
 *
 * Prints
 *     f32_gemm_check: <board>: <cases> cases (<two-row> with two-row blocks), <outputs> outputs checked, 0 mismatches
 * and exits 0 only with no mismatch and at least F32_GEMM_MIN_CASES cases, of which at least
 * F32_GEMM_MIN_TWO_ROW have two rows and four columns or more. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "check_rng.h"
#include "portable/engines/gemm.h"
#include "tinypte/board.h"
#include "tinypte/kernel.h"
#include "util/nn.h"

/* The two-row extension's registry entry: referencing it links extensions/gemm_rows.c. */
extern const tp_kernel tp_kernel_tinypte_gemm_rows_ext;
const tp_kernel *volatile f32_gemm_check_links_rows = &tp_kernel_tinypte_gemm_rows_ext;

#ifndef F32_GEMM_MIN_CASES
#define F32_GEMM_MIN_CASES 1
#endif
#ifndef F32_GEMM_MIN_TWO_ROW
#define F32_GEMM_MIN_TWO_ROW 1
#endif

enum { CASES = 400, MAX_M = 5, MAX_N = 70, MAX_P = 27 };

static float x[MAX_M * MAX_N], y[MAX_N * MAX_P], bias[MAX_M * MAX_P];
static float want[MAX_M * MAX_P], got[MAX_M * MAX_P + 1];

/* A float with a random sign, exponent in [-8, 7] and 23 random mantissa bits: sums of these
 * round, so a change of order or rounding shows. */
static float value(void) {
  float f = 1.0f + (float)(rnd() & 0x7fffffu) / 8388608.0f;
  for (int32_t e = range(-8, 7); e != 0; e += e > 0 ? -1 : 1) {
    f = e > 0 ? f * 2.0f : f * 0.5f; /* exact */
  }
  return (rnd() & 1u) != 0 ? -f : f;
}

/* The definition: z[i][j] = epilogue(sum over k of x[i][k] * y[k][j]). */
static void reference(const tp_gemm *g, const float *b) {
  for (uint32_t i = 0; i < g->m; i++) {
    for (uint32_t j = 0; j < g->p; j++) {
      float s = 0.0f;
      for (uint32_t k = 0; k < g->n; k++) {
        TP_MAC(s, x[i * g->x_row + k], y[k * g->y_row + j]);
      }
      if (b != NULL) {
        const float bv = b[i * g->bias_row + j * g->bias_col];
        s = g->scaled ? s * g->alpha + bv * g->beta : s + bv;
      }
      if (g->clamped) {
        s = tp_clamp_apply(&g->clamp, s);
      }
      want[i * g->p + j] = s;
    }
  }
}

int main(void) {
  uint32_t cases = 0, two_row = 0, outputs = 0, mismatches = 0;
  check_seed(20261128u);
  for (uint32_t c = 0; c < CASES; c++) {
    const uint32_t m = (uint32_t)range(1, MAX_M), n = (uint32_t)range(1, MAX_N), p = (uint32_t)range(1, MAX_P);
    const uint32_t clamp_kind = (uint32_t)range(0, 3); /* none, relu, both bounds, upper only */
    const tp_clamp clamp = {clamp_kind == 3 ? -INFINITY : clamp_kind == 2 ? -0.5f : 0.0f,
                            clamp_kind >= 2 ? 0.75f : INFINITY};
    tp_gemm g;
    tp_gemm_init(&g, m, n, p, clamp_kind != 0 ? &clamp : NULL);
    const uint32_t bias_kind = (uint32_t)range(0, 3); /* none, per row, per column, per column scaled */
    g.bias_row = bias_kind == 1 ? 1u : 0u;
    g.bias_col = bias_kind >= 2 ? 1u : 0u;
    g.scaled = bias_kind == 3;
    g.alpha = 2.0f;
    g.beta = 0.5f;
    for (uint32_t i = 0; i < m * n; i++) {
      x[i] = value();
    }
    for (uint32_t i = 0; i < n * p; i++) {
      y[i] = value();
    }
    for (uint32_t i = 0; i < m * p; i++) {
      bias[i] = value();
    }
    const float *b = bias_kind == 0 ? NULL : bias;
    reference(&g, b);
    got[m * p] = 12345.0f; /* a sentinel past the end */
    tp_gemm_f32(&g, got, x, y, b);
    bool ok = got[m * p] == 12345.0f;
    for (uint32_t i = 0; i < m * p; i++) {
      ok = ok && memcmp(&got[i], &want[i], sizeof(float)) == 0;
    }
    if (!ok) {
      mismatches++;
      tp_console_puts("f32_gemm_check: mismatch in case ");
      put_u32(c);
      tp_console_puts("\n");
    }
    outputs += m * p;
    two_row += m >= 2 && p >= 4;
    cases++;
  }
  tp_console_puts("f32_gemm_check: ");
  tp_console_puts(tp_board_name());
  tp_console_puts(": ");
  put_u32(cases);
  tp_console_puts(" cases (");
  put_u32(two_row);
  tp_console_puts(" with two-row blocks), ");
  put_u32(outputs);
  tp_console_puts(" outputs checked, ");
  put_u32(mismatches);
  tp_console_puts(" mismatches\n");
#if TP_NN_VLDM
  if (tp_gemm_f32_pairs == NULL) {
    tp_console_puts("f32_gemm_check: FAIL: the two-row extension (extensions/gemm_rows.c) is not linked\n");
    return 1;
  }
#endif
  if (cases < F32_GEMM_MIN_CASES || two_row < F32_GEMM_MIN_TWO_ROW) {
    tp_console_puts("f32_gemm_check: FAIL: fewer cases than the minimum\n");
    return 1;
  }
  return mismatches == 0 ? 0 : 1;
}
