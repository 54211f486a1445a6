/* aten::index.Tensor_out: self[indices] with index tensors (advanced indexing, engines/adv_index.h):
 * out has the indexed result's shape and self's dtype (any). */
#include <string.h>

#include "portable/engines/adv_index.h"

typedef struct index_state {
  tp_adv_index_plan plan;
  uint32_t esize;
} index_state;

/* index.Tensor_out(Tensor self, Tensor?[] indices, *, Tensor(a!) out) -> Tensor(a!): args self, indices,
 * out, out. */
enum { INDEX_SELF, INDEX_INDICES, INDEX_OUT };

static tp_status index_run(const tp_kernel_call *call) {
  const index_state *st = call->state;
  const uint8_t *x = (const uint8_t *)call->args[INDEX_SELF]->as.tensor->data;
  tp_tensor *const *indices = call->args[INDEX_INDICES]->as.tensor_list.items;
  uint8_t *o = (uint8_t *)call->args[INDEX_OUT]->as.tensor->data;
  uint32_t coord[TP_MAX_DIM] = {0};
  for (uint32_t i = 0; i < st->plan.res_numel; i++) {
    uint32_t at;
    TP_TRY(tp_adv_index_offset(&st->plan, indices, coord, &at));
    memmove(o + (size_t)i * st->esize, x + (size_t)at * st->esize, st->esize);
    tp_adv_index_next(&st->plan, coord);
  }
  return TP_OK;
}

TP_KERNEL(aten, index, Tensor_out, index_state) {
  tp_tensor *self, *out;
  tp_tensor *const *indices;
  uint32_t n;
  TP_TRY(tp_elementwise_args(call, INDEX_OUT, &self, &out));
  TP_TRY(tp_arg_index_list(call, INDEX_INDICES, &indices, &n));
  const size_t esize = tp_dtype_size(self->dtype);
  if (esize == 0 || self->dtype != out->dtype) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_TRY(tp_adv_index_plan_init(&state->plan, self, indices, n));
  TP_CHECK_ARGS(out->dim == state->plan.res_dim);
  for (uint32_t d = 0; d < out->dim; d++) {
    TP_CHECK_ARGS((uint32_t)out->sizes[d] == state->plan.res_sizes[d]);
  }
  state->esize = (uint32_t)esize;
  *run = index_run;
  return TP_OK;
}
