/* aten::gather.out: out[i][j][k] = self[index[i][j][k]][j][k] for dim 0 (and likewise along any
 * dim); out has index's shape and self's dtype (any). Index values outside self's size along dim
 * fail the run with TP_ERR_INDEX_RANGE (engines/scatter_gather.h). */
#include <string.h>

#include "engines/scatter_gather.h"

typedef struct gather_kernel_state {
  tp_dim_index_plan plan;
  uint32_t esize;
} gather_kernel_state;

/* gather.out(Tensor self, int dim, Tensor index, *, bool sparse_grad=False, Tensor(a!) out) ->
 * Tensor(a!): args self, dim, index, sparse_grad, out, out. */
enum { GATHER_SELF, GATHER_DIM, GATHER_INDEX, GATHER_SPARSE, GATHER_OUT };

static tp_status gather_run(const tp_kernel_call *call) {
  const gather_kernel_state *st = call->state;
  const uint8_t *x = (const uint8_t *)call->args[GATHER_SELF]->as.tensor->data;
  const void *index = call->args[GATHER_INDEX]->as.tensor->data;
  uint8_t *o = (uint8_t *)call->args[GATHER_OUT]->as.tensor->data;
  tp_dim_index_pos pos = {{0}, 0, 0};
  for (uint32_t i = 0; i < st->plan.numel; i++) {
    uint32_t at;
    TP_TRY(tp_dim_index_target(&st->plan, index, i, &pos, &at));
    memmove(o + (size_t)i * st->esize, x + (size_t)at * st->esize, st->esize);
    tp_dim_index_next(&st->plan, &pos);
  }
  return TP_OK;
}

TP_KERNEL(aten, gather, out, gather_kernel_state) {
  tp_tensor *self, *index, *out;
  int64_t dim;
  TP_TRY(tp_elementwise_args(call, GATHER_OUT, &self, &out));
  TP_TRY(tp_arg_int(call->args, call->nargs, GATHER_DIM, &dim));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, GATHER_INDEX, &index));
  const size_t esize = tp_dtype_size(self->dtype);
  if (esize == 0 || self->dtype != out->dtype) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(tp_same_shape(index, out));
  TP_TRY(tp_dim_index_plan_init(&state->plan, self, dim, index, 0));
  state->esize = (uint32_t)esize;
  *run = gather_run;
  return TP_OK;
}
