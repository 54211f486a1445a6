/* aten::gather.out: out[i][j][k] = self[index[i][j][k]][j][k] for dim 0 (and likewise along any
 * dim); out has index's shape and self's dtype (any). Index values outside self's size along dim
 * fail the run with TP_ERR_INDEX_RANGE (engines/scatter_gather.h). */
#include <string.h>

#include "portable/engines/scatter_gather.h"

typedef struct gather_kernel_state {
  tp_dim_index_plan plan;
  uint32_t esize;
} gather_kernel_state;

/* out[out_off] = self[at] (tp_dim_index_visit_fn; out is the plan's src). */
static void gather_one(const tp_dim_index_io *io, uint32_t at, uint32_t out_off) {
  memmove(io->out + (size_t)out_off * io->esize, io->in + (size_t)at * io->esize, io->esize);
}

static tp_status gather_run(const tp_kernel_call *call) {
  const gather_kernel_state *st = call->state;
  const tp_dim_index_io io = {call->args[TP_DIM_INDEX_SELF]->as.tensor->data,
                              call->args[TP_DIM_INDEX_OUT]->as.tensor->data, 0, st->esize, 0};
  return tp_dim_index_each(&st->plan, call->args[TP_DIM_INDEX_INDEX]->as.tensor->data, gather_one, &io);
}

TP_KERNEL(aten, gather, out, gather_kernel_state) {
  tp_tensor *self, *index, *out;
  int64_t dim;
  TP_TRY(tp_dim_index_args(call, &self, &dim, &index, &out));
  const size_t esize = tp_dtype_size(self->dtype);
  if (esize == 0 || self->dtype != out->dtype) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(tp_same_shape(index, out));
  TP_TRY(tp_dim_index_plan_init(&state->plan, self, dim, index, out));
  state->esize = (uint32_t)esize;
  *run = gather_run;
  return TP_OK;
}
