/* aten::select_copy.int_out: self[..., index, ...] along `dim` (that dimension removed; a negative
 * index counts from the end), copied contiguous; any dtype. A strided view starting at index *
 * stride, gathered by tp_gather_plan. */
#include "kernel_util.h"

/* select_copy.int_out(Tensor self, int dim, SymInt index, *, Tensor(a!) out) -> Tensor(a!): args
 * self, dim, index, out, out. */
enum { SELECT_SELF, SELECT_DIM, SELECT_INDEX, SELECT_OUT };

TP_KERNEL(aten, select_copy, int_out, tp_gather_state) {
  tp_tensor *in, *out;
  int64_t index;
  uint32_t dim;
  size_t esize;
  TP_TRY(tp_dim_view_args(call, SELECT_OUT, &in, &out, &dim, &index, &esize));
  const int64_t size = in->sizes[dim];
  TP_CHECK_ARGS(index >= 0 && index < size);
  uint32_t in_strides[TP_MAX_DIM];
  tp_contiguous_strides(in, in_strides);
  int32_t sizes[TP_MAX_DIM];
  uint32_t strides[TP_MAX_DIM];
  uint32_t n = 0;
  for (uint32_t d = 0; d < in->dim; d++) {
    if (d != dim) {
      sizes[n] = in->sizes[d];
      strides[n++] = in_strides[d];
    }
  }
  TP_CHECK_ARGS(tp_shape_is(out, n, sizes));
  tp_gather_plan(state, n, sizes, strides, esize, SELECT_OUT, run);
  state->base = out->numel > 0 ? (uint32_t)index * in_strides[dim] : 0;
  return TP_OK;
}
