/* An int8 matrix product split over two cores (s8_matmul_two_cores.h): linked only into
 * firmware that references it (two-core firmware, through the kernels' two-core part
 * runtime/kernels/two_cores.c) and the tests of the split paths. */
#include "cortex_m/engines/s8_matmul_two_cores.h"

#include <stdbool.h>
#include <stddef.h>

const uint8_t tp_s8_matmul_two_cores_linked = 1;

typedef struct matmul_split {
  const tp_s8_matmul *p;
  const int8_t *lhs, *rhs;
  const int32_t *bias;
  int8_t *out;
} matmul_split;

/* Rows [r0, r1) of the product. */
static void rows_part(const void *ctx, int32_t r0, int32_t r1, void *scratch) {
  (void)scratch;
  const matmul_split *m = ctx;
  tp_s8_matmul sub = *m->p;
  sub.rows = (uint32_t)(r1 - r0);
  tp_s8_matmul_run(&sub, m->lhs + (uint32_t)r0 * sub.depth, m->rhs, m->bias, m->out + (uint32_t)r0 * sub.cols);
}

/* Columns [c0, c1) of a one-row product: rhs rows c0.. and their outs. */
static void cols_part(const void *ctx, int32_t c0, int32_t c1, void *scratch) {
  (void)scratch;
  const matmul_split *m = ctx;
  tp_s8_matmul sub = *m->p;
  sub.cols = (uint32_t)(c1 - c0);
  tp_s8_matmul_run(&sub, m->lhs, m->rhs + (uint32_t)c0 * sub.depth, m->bias != NULL ? m->bias + c0 : NULL,
                   m->out + c0);
}

tp_status tp_s8_matmul_two_cores(const tp_s8_matmul *p, const int8_t *lhs, const int8_t *rhs, const int32_t *bias,
                                 int8_t *out) {
  const uint64_t work = (uint64_t)p->rows * p->cols * p->depth;
  /* One row: its columns, blocks of four whole (the routines take four rhs rows at a time). */
  const bool by_cols = p->rows == 1;
  const int32_t count = (int32_t)(by_cols ? p->cols : p->rows);
  const int32_t mid = tp_two_cores_point_linked(count, by_cols ? 4 : 1, work, 0);
  if (mid <= 0) { /* one core: straight to the routine */
    tp_s8_matmul_run(p, lhs, rhs, bias, out);
    return TP_OK;
  }
  const matmul_split m = {p, lhs, rhs, bias, out};
  return tp_two_cores_run_at(by_cols ? cols_part : rows_part, &m, mid, count, NULL);
}
