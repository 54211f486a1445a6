/* aten::slice_scatter.out: a copy of self with self[..., start:end:step, ...] along `dim` replaced
 * by src (Python slice bounds: None is the whole dimension, negative counts from the end, bounds
 * clamp); any dtype (engines/scatter_view.h). */
#include "portable/engines/scatter_view.h"

/* slice_scatter.out(Tensor self, Tensor src, int dim=0, SymInt? start=None, SymInt? end=None, SymInt
 * step=1, *, Tensor(a!) out) -> Tensor(a!): args self, src, dim, start, end, step, out, out. */
enum { SLICE_SC_SELF, SLICE_SC_SRC, SLICE_SC_DIM, SLICE_SC_START, SLICE_SC_END, SLICE_SC_STEP, SLICE_SC_OUT };

TP_KERNEL(aten, slice_scatter, out, tp_scatter_view_state) {
  tp_tensor *self, *src, *out;
  int64_t dim_arg, start, end, step;
  bool has_start, has_end;
  uint32_t dim;
  TP_TRY(tp_elementwise_args(call, SLICE_SC_OUT, &self, &out));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, SLICE_SC_SRC, &src));
  TP_TRY(tp_arg_int(call->args, call->nargs, SLICE_SC_DIM, &dim_arg));
  TP_TRY(tp_arg_optional_int(call->args, call->nargs, SLICE_SC_START, &start, &has_start));
  TP_TRY(tp_arg_optional_int(call->args, call->nargs, SLICE_SC_END, &end, &has_end));
  TP_TRY(tp_arg_int(call->args, call->nargs, SLICE_SC_STEP, &step));
  TP_TRY(tp_scatter_view_check(state, self, src, out, SLICE_SC_OUT));
  TP_TRY(tp_normalize_dim(dim_arg, self->dim, &dim));
  TP_CHECK_ARGS(step >= 1);
  const int64_t size = self->sizes[dim];
  const int64_t first = has_start ? tp_slice_bound(start, size) : 0;
  const int64_t last = has_end ? tp_slice_bound(end, size) : size;
  const int64_t count = last > first ? 1 + (last - first - 1) / step : 0; /* no overflow for any step */
  uint32_t strides[TP_MAX_DIM];
  tp_contiguous_strides(self, strides);
  int32_t sizes[TP_MAX_DIM];
  for (uint32_t d = 0; d < self->dim; d++) {
    sizes[d] = d == dim ? (int32_t)count : self->sizes[d];
    state->sizes[d] = (uint32_t)sizes[d];
    state->strides[d] = d == dim ? strides[d] * (uint32_t)step : strides[d];
  }
  TP_CHECK_ARGS(tp_shape_is(src, self->dim, sizes));
  state->dim = self->dim;
  state->base = count > 0 ? (uint32_t)first * strides[dim] : 0;
  *run = tp_scatter_view_run;
  return TP_OK;
}
