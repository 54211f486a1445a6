/* aten::scatter.src_out and aten::scatter.value_out: out = self, then out[index[i][j]][j] =
 * src[i][j] (or the value) for dim 0, likewise along any dim; any dtype. Where several index
 * elements name one out element, the last written wins (index order). Index values outside
 * self's size fail the run with TP_ERR_INDEX_RANGE (engines/scatter_gather.h). */
#include <string.h>

#include "portable/engines/scatter_gather.h"

typedef struct scatter_state {
  tp_dim_index_plan plan;
  uint8_t value[8]; /* value_out: the value as one element of self's dtype */
  uint32_t esize;
  bool from_src;
} scatter_state;

/* out[at] = src[src_off] or the value (tp_dim_index_visit_fn). */
static void scatter_one(const tp_dim_index_io *io, uint32_t at, uint32_t src_off) {
  memmove(io->out + (size_t)at * io->esize, io->in != 0 ? io->in + (size_t)src_off * io->esize : io->value, io->esize);
}

static tp_status scatter_run(const tp_kernel_call *call) {
  const scatter_state *st = call->state;
  const tp_tensor *self = call->args[TP_DIM_INDEX_SELF]->as.tensor;
  const tp_dim_index_io io = {st->from_src ? call->args[TP_DIM_INDEX_FOURTH]->as.tensor->data : 0,
                              call->args[TP_DIM_INDEX_OUT]->as.tensor->data, st->value, st->esize, 0};
  tp_scatter_start(self, io.out);
  return tp_dim_index_each(&st->plan, call->args[TP_DIM_INDEX_INDEX]->as.tensor->data, scatter_one, &io);
}

static tp_status scatter_prepare(const tp_kernel_call *call, scatter_state *state, tp_kernel_run_fn *run,
                                 bool from_src) {
  tp_tensor *self, *index, *out, *src = 0;
  int64_t dim;
  TP_TRY(tp_dim_index_args(call, &self, &dim, &index, &out));
  const size_t esize = tp_dtype_size(self->dtype);
  if (esize == 0 || self->dtype != out->dtype) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(tp_same_shape(self, out));
  if (from_src) {
    TP_TRY(tp_arg_tensor(call->args, call->nargs, TP_DIM_INDEX_FOURTH, &src));
    if (src->dtype != self->dtype) {
      return TP_ERR_KERNEL_DTYPE;
    }
  } else {
    TP_TRY(tp_arg_scalar_as(call->args, call->nargs, TP_DIM_INDEX_FOURTH, self->dtype, state->value));
  }
  TP_TRY(tp_dim_index_plan_init(&state->plan, self, dim, index, src));
  state->esize = (uint32_t)esize;
  state->from_src = from_src;
  *run = scatter_run;
  return TP_OK;
}

TP_KERNEL(aten, scatter, src_out, scatter_state) { return scatter_prepare(call, state, run, true); }

TP_KERNEL(aten, scatter, value_out, scatter_state) { return scatter_prepare(call, state, run, false); }
