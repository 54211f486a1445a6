/* An int8 matrix product (s8_matmul.h) split over two cores: its rows, or for one row its
 * columns in blocks of four, each part by the routine one core would use, through the hand-over
 * (tinypte/two_cores_hand_over.h); and tp_s8_matmul_run_any, which the operators call: on one
 * core or two. */
#ifndef TINYPTE_KERNELS_CORTEX_M_ENGINES_S8_MATMUL_TWO_CORES_H
#define TINYPTE_KERNELS_CORTEX_M_ENGINES_S8_MATMUL_TWO_CORES_H

#include <stdint.h>

#include "cortex_m/engines/s8_matmul.h"
#include "tinypte/two_cores.h"
#include "tinypte/two_cores_hand_over.h"

/** tp_s8_matmul_run with its rows (one row: its columns, in blocks of four) split over two cores
 *  when a second core is installed and the product is large enough: each out by the same
 *  routine, so bit-identical. Needs no scratch. TP_ERR_WORKER when the second core does not
 *  answer. Weak: NULL unless the firmware links s8_matmul_two_cores.c (two-core firmware and the
 *  tests do, through runtime/kernels/two_cores.c). */
tp_status tp_s8_matmul_two_cores(const tp_s8_matmul *p, const int8_t *lhs, const int8_t *rhs, const int32_t *bias,
                                 int8_t *out) __attribute__((weak));

/** tp_s8_matmul_two_cores for any product: a small one (most of a small model's) goes straight to
 *  tp_s8_matmul_run, at the cost of one comparison. */
static inline tp_status tp_s8_matmul_run_any(const tp_s8_matmul *p, const int8_t *lhs, const int8_t *rhs,
                                             const int32_t *bias, int8_t *out) {
  if ((uint64_t)p->rows * p->cols * p->depth < tp_two_cores_min_work || tp_s8_matmul_two_cores == NULL) {
    tp_s8_matmul_run(p, lhs, rhs, bias, out);
    return TP_OK;
  }
  return tp_s8_matmul_two_cores(p, lhs, rhs, bias, out);
}

/* Defined with tp_s8_matmul_two_cores: what runtime/kernels/two_cores.c references to link it. */
extern const uint8_t tp_s8_matmul_two_cores_linked;

#endif /* TINYPTE_KERNELS_CORTEX_M_ENGINES_S8_MATMUL_TWO_CORES_H */
