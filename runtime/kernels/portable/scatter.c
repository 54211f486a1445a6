/* aten::scatter.src_out and aten::scatter.value_out: out = self, then out[index[i][j]][j] =
 * src[i][j] (or the value) for dim 0, likewise along any dim; any dtype. Where several index
 * elements name one out element, the last written wins (index order). Index values outside
 * self's size fail the run with TP_ERR_INDEX_RANGE (engines/scatter_gather.h). */
#include <string.h>

#include "engines/scatter_gather.h"

typedef struct scatter_state {
  tp_dim_index_plan plan;
  uint8_t value[8]; /* value_out: the value as one element of self's dtype */
  uint32_t esize;
  bool from_src;
} scatter_state;

/* scatter.src_out(Tensor self, int dim, Tensor index, Tensor src, *, Tensor(a!) out) and
 * scatter.value_out(Tensor self, int dim, Tensor index, Scalar value, *, Tensor(a!) out): args self,
 * dim, index, src or value, out, out. */
enum { SCATTER_SELF, SCATTER_DIM, SCATTER_INDEX, SCATTER_SRC, SCATTER_OUT };

static tp_status scatter_run(const tp_kernel_call *call) {
  const scatter_state *st = call->state;
  const tp_tensor *self = call->args[SCATTER_SELF]->as.tensor;
  const void *index = call->args[SCATTER_INDEX]->as.tensor->data;
  const uint8_t *src = st->from_src ? (const uint8_t *)call->args[SCATTER_SRC]->as.tensor->data : 0;
  uint8_t *o = (uint8_t *)call->args[SCATTER_OUT]->as.tensor->data;
  if (o != self->data) {
    memmove(o, self->data, self->nbytes);
  }
  tp_dim_index_pos pos = {{0}, 0, 0};
  for (uint32_t i = 0; i < st->plan.numel; i++) {
    uint32_t at;
    TP_TRY(tp_dim_index_target(&st->plan, index, i, &pos, &at));
    memmove(o + (size_t)at * st->esize, src != 0 ? src + (size_t)pos.src_off * st->esize : st->value, st->esize);
    tp_dim_index_next(&st->plan, &pos);
  }
  return TP_OK;
}

static tp_status scatter_prepare(const tp_kernel_call *call, scatter_state *state, tp_kernel_run_fn *run,
                                 bool from_src) {
  tp_tensor *self, *index, *out, *src = 0;
  int64_t dim;
  TP_TRY(tp_elementwise_args(call, SCATTER_OUT, &self, &out));
  TP_TRY(tp_arg_int(call->args, call->nargs, SCATTER_DIM, &dim));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, SCATTER_INDEX, &index));
  const size_t esize = tp_dtype_size(self->dtype);
  if (esize == 0 || self->dtype != out->dtype) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(tp_same_shape(self, out));
  if (from_src) {
    TP_TRY(tp_arg_tensor(call->args, call->nargs, SCATTER_SRC, &src));
    if (src->dtype != self->dtype) {
      return TP_ERR_KERNEL_DTYPE;
    }
  } else {
    TP_TRY(tp_arg_scalar_as(call->args, call->nargs, SCATTER_SRC, self->dtype, state->value));
  }
  TP_TRY(tp_dim_index_plan_init(&state->plan, self, dim, index, src));
  state->esize = (uint32_t)esize;
  state->from_src = from_src;
  *run = scatter_run;
  return TP_OK;
}

TP_KERNEL(aten, scatter, src_out, scatter_state) { return scatter_prepare(call, state, run, true); }

TP_KERNEL(aten, scatter, value_out, scatter_state) { return scatter_prepare(call, state, run, false); }
