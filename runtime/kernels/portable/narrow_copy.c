/* aten::narrow_copy.out: self's elements [start, start + length) along `dim` (a negative start
 * counts from the end), copied contiguous; any dtype. A strided view gathered by tp_gather_plan. */
#include "kernel_util.h"

/* narrow_copy.out(Tensor self, int dim, SymInt start, SymInt length, *, Tensor(a!) out) -> Tensor(a!):
 * args self, dim, start, length, out, out. */
enum { NARROW_SELF, NARROW_DIM, NARROW_START, NARROW_LENGTH, NARROW_OUT };

TP_KERNEL(aten, narrow_copy, out, tp_gather_state) {
  tp_tensor *in, *out;
  int64_t start, length;
  uint32_t dim;
  size_t esize;
  TP_TRY(tp_arg_int(call->args, call->nargs, NARROW_LENGTH, &length));
  TP_TRY(tp_dim_view_args(call, NARROW_OUT, &in, &out, &dim, &start, &esize));
  const int64_t size = in->sizes[dim];
  TP_CHECK_ARGS(start >= 0 && start <= size && length >= 0 && length <= size - start);
  int32_t sizes[TP_MAX_DIM];
  uint32_t strides[TP_MAX_DIM];
  tp_contiguous_strides(in, strides);
  for (uint32_t d = 0; d < in->dim; d++) {
    sizes[d] = d == dim ? (int32_t)length : in->sizes[d];
  }
  TP_CHECK_ARGS(tp_shape_is(out, in->dim, sizes));
  tp_gather_plan(state, in->dim, sizes, strides, esize, NARROW_OUT, run);
  state->base = out->numel > 0 ? (uint32_t)start * strides[dim] : 0;
  return TP_OK;
}
