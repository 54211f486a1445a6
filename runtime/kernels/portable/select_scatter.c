/* aten::select_scatter.out: a copy of self with self[..., index, ...] along `dim` replaced by src
 * (self's shape without dim); any dtype (engines/scatter_view.h). */
#include "portable/engines/scatter_view.h"

/* select_scatter.out(Tensor self, Tensor src, int dim, SymInt index, *, Tensor(a!) out) -> Tensor(a!):
 * args self, src, dim, index, out, out. */
enum { SELECT_SCATTER_SELF, SELECT_SCATTER_SRC, SELECT_SCATTER_DIM, SELECT_SCATTER_INDEX, SELECT_SCATTER_OUT };

TP_KERNEL(aten, select_scatter, out, tp_scatter_view_state) {
  tp_tensor *self, *src, *out;
  int64_t dim_arg, index;
  uint32_t dim;
  TP_TRY(tp_elementwise_args(call, SELECT_SCATTER_OUT, &self, &out));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, SELECT_SCATTER_SRC, &src));
  TP_TRY(tp_arg_int(call->args, call->nargs, SELECT_SCATTER_DIM, &dim_arg));
  TP_TRY(tp_arg_int(call->args, call->nargs, SELECT_SCATTER_INDEX, &index));
  TP_TRY(tp_scatter_view_check(state, self, src, out, SELECT_SCATTER_OUT));
  TP_TRY(tp_normalize_dim(dim_arg, self->dim, &dim));
  const int64_t size = self->sizes[dim];
  if (index < 0) {
    index += size;
  }
  TP_CHECK_ARGS(index >= 0 && index < size);
  uint32_t strides[TP_MAX_DIM];
  tp_contiguous_strides(self, strides);
  int32_t sizes[TP_MAX_DIM];
  uint32_t n = 0;
  for (uint32_t d = 0; d < self->dim; d++) {
    if (d != dim) {
      sizes[n] = self->sizes[d];
      state->sizes[n] = (uint32_t)self->sizes[d];
      state->strides[n++] = strides[d];
    }
  }
  TP_CHECK_ARGS(tp_shape_is(src, n, sizes));
  state->dim = n;
  state->base = (uint32_t)index * strides[dim];
  *run = tp_scatter_view_run;
  return TP_OK;
}
