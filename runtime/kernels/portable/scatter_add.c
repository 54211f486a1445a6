/* aten::scatter_add.out: out = self, then out[index[i][j]][j] += src[i][j] for dim 0 (likewise
 * along any dim), in index order; any real dtype or bool (floats add in float32, integers wrap,
 * bools or). Index values outside self's size fail the run with TP_ERR_INDEX_RANGE
 * (engines/scatter_gather.h). */
#include "portable/engines/scatter_gather.h"

typedef struct scatter_add_state {
  tp_dim_index_plan plan;
  uint8_t dtype;
} scatter_add_state;

/* out[at] += src[src_off] (tp_dim_index_visit_fn). */
static void scatter_add_one(const tp_dim_index_io *io, uint32_t at, uint32_t src_off) {
  if (io->dtype == TP_DTYPE_FLOAT32) {
    ((float *)(void *)io->out)[at] += ((const float *)(const void *)io->in)[src_off];
  } else {
    const uint64_t sum =
        (uint64_t)tp_elem_load_i64(io->out, io->dtype, at) + (uint64_t)tp_elem_load_i64(io->in, io->dtype, src_off);
    tp_elem_store_i64(io->out, io->dtype, at, (int64_t)sum);
  }
}

static tp_status scatter_add_run(const tp_kernel_call *call) {
  const scatter_add_state *st = call->state;
  const tp_tensor *self = call->args[TP_DIM_INDEX_SELF]->as.tensor;
  const tp_dim_index_io io = {call->args[TP_DIM_INDEX_FOURTH]->as.tensor->data,
                              call->args[TP_DIM_INDEX_OUT]->as.tensor->data, 0, 0, st->dtype};
  tp_scatter_start(self, io.out);
  return tp_dim_index_each(&st->plan, call->args[TP_DIM_INDEX_INDEX]->as.tensor->data, scatter_add_one, &io);
}

TP_KERNEL(aten, scatter_add, out, scatter_add_state) {
  tp_tensor *self, *index, *src, *out;
  int64_t dim;
  TP_TRY(tp_dim_index_args(call, &self, &dim, &index, &out));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, TP_DIM_INDEX_FOURTH, &src));
  if (!tp_dtype_is_real_or_bool(self->dtype) || self->dtype != out->dtype || src->dtype != self->dtype) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(tp_same_shape(self, out));
  TP_TRY(tp_dim_index_plan_init(&state->plan, self, dim, index, src));
  state->dtype = (uint8_t)self->dtype;
  *run = scatter_add_run;
  return TP_OK;
}
