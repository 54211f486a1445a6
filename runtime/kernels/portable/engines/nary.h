/* Broadcasting up to three operands against a contiguous out, element by element (where,
 * masked_fill, clamp.Tensor, and the mixed-dtype binary engine). Simpler and slower than
 * broadcast.h's row iterator, which the hot float kernels (add, mul, ...) use: one odometer
 * step per element. */
#ifndef TINYPTE_KERNELS_ENGINES_NARY_H
#define TINYPTE_KERNELS_ENGINES_NARY_H

#include <stdint.h>

#include "kernel_util.h"

enum { TP_NARY_MAX = 3 };

typedef struct tp_nary_plan {
  uint32_t numel;                            /* out's elements */
  uint8_t dim;                               /* out's dimensions (at least 1; a 0-dim out is 1 x 1) */
  uint8_t n;                                 /* operands */
  uint32_t sizes[TP_MAX_DIM];                /* out's sizes */
  uint32_t strides[TP_NARY_MAX][TP_MAX_DIM]; /* operand element strides, 0 where it repeats */
} tp_nary_plan;

/** Plan broadcasting `ins[0..n)` (n <= TP_NARY_MAX; a NULL operand is a scalar, repeated
 *  everywhere) into `out`, whose shape must be exactly their broadcast shape (else
 *  TP_ERR_KERNEL_ARGS). Channels-last operands: all in out's memory order and of out's shape
 *  (no broadcasting), else TP_ERR_DIM_ORDER. */
tp_status tp_nary_plan_init(tp_nary_plan *plan, const tp_tensor *const *ins, uint32_t n, const tp_tensor *out);

/** Give a dynamic `out` the broadcast shape of `ins[0..n)` (NULL operands are scalars);
 *  nothing for a static out, whose shape tp_nary_plan_init checks. */
tp_status tp_nary_resize_out(const tp_tensor *const *ins, uint32_t n, tp_tensor *out);

/* The position of one out element: its multi-index and every operand's element offset. */
typedef struct tp_nary_pos {
  uint32_t index[TP_MAX_DIM];
  uint32_t off[TP_NARY_MAX];
} tp_nary_pos;

void tp_nary_pos_start(tp_nary_pos *pos);

/** Move to the next out element (row-major). */
static inline void tp_nary_next(const tp_nary_plan *p, tp_nary_pos *pos) {
  for (uint32_t d = p->dim; d-- > 0;) {
    for (uint32_t k = 0; k < p->n; k++) {
      pos->off[k] += p->strides[k][d];
    }
    if (++pos->index[d] < p->sizes[d]) {
      return;
    }
    for (uint32_t k = 0; k < p->n; k++) {
      pos->off[k] -= p->strides[k][d] * p->sizes[d];
    }
    pos->index[d] = 0;
  }
}

#endif /* TINYPTE_KERNELS_ENGINES_NARY_H */
