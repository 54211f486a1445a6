/* Planning the element-by-element broadcast of nary.h. */
#include "portable/engines/nary.h"

#include <string.h>

#include "util/broadcast.h"

tp_status tp_nary_plan_init(tp_nary_plan *plan, const tp_tensor *const *ins, uint32_t n, const tp_tensor *out) {
  TP_CHECK_ARGS(n <= TP_NARY_MAX);
  const uint32_t dim = out->dim > 0 ? out->dim : 1;
  plan->dim = (uint8_t)dim;
  plan->n = (uint8_t)n;
  plan->numel = out->numel;
  for (uint32_t d = 0; d < dim; d++) {
    plan->sizes[d] = out->dim > 0 ? (uint32_t)out->sizes[d] : 1u;
  }
  /* Every out dimension must come from some operand (else out is larger than the broadcast). */
  bool produced[TP_MAX_DIM] = {false};
  for (uint32_t k = 0; k < n; k++) {
    const tp_tensor *t = ins[k];
    for (uint32_t d = 0; d < TP_MAX_DIM; d++) {
      plan->strides[k][d] = 0;
    }
    if (t == 0) {
      continue;
    }
    TP_CHECK_ARGS(t->dim <= out->dim);
    uint32_t stride = 1;
    for (uint32_t j = t->dim; j-- > 0;) {
      const uint32_t d = j + (out->dim - t->dim); /* aligned at the last dimension */
      const uint32_t size = (uint32_t)t->sizes[j];
      if (size == plan->sizes[d]) {
        plan->strides[k][d] = size == 1 ? 0 : stride;
        produced[d] = true;
      } else {
        TP_CHECK_ARGS(size == 1);
      }
      stride *= size;
    }
  }
  for (uint32_t d = 0; d < out->dim; d++) {
    TP_CHECK_ARGS(produced[d] || plan->sizes[d] == 1);
  }
  /* The plan walks every operand as row-major. That is right for tensors in another memory order
   * only when all of them share it and out's shape (then element i of each is element i of out):
   * anything else with a channels-last tensor is refused, not read wrong. */
  for (uint32_t k = 0; k < n; k++) {
    const tp_tensor *t = ins[k];
    if (t != 0 && (!tp_same_memory_order(t, out) || (out->channels_last && !tp_same_shape(t, out)))) {
      return TP_ERR_DIM_ORDER;
    }
  }
  return TP_OK;
}

tp_status tp_nary_resize_out(const tp_tensor *const *ins, uint32_t n, tp_tensor *out) {
  if (!out->dynamic) {
    return TP_OK;
  }
  uint32_t dim = 0;
  int32_t sizes[TP_MAX_DIM];
  for (uint32_t k = 0; k < n; k++) {
    if (ins[k] != NULL) { /* fold each operand into the broadcast shape so far */
      int32_t so_far[TP_MAX_DIM];
      memcpy(so_far, sizes, sizeof(int32_t) * dim);
      const tp_tensor shape = {.sizes = so_far, .dim = (uint8_t)dim};
      TP_TRY(tp_broadcast_shape(&shape, ins[k], &dim, sizes));
    }
  }
  return tp_out_shape(out, dim, sizes);
}

void tp_nary_pos_start(tp_nary_pos *pos) {
  for (uint32_t d = 0; d < TP_MAX_DIM; d++) {
    pos->index[d] = 0;
  }
  for (uint32_t k = 0; k < TP_NARY_MAX; k++) {
    pos->off[k] = 0;
  }
}
