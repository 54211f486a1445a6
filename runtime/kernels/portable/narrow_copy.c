/* aten::narrow_copy.out: self's elements [start, start + length) along `dim` (a negative start
 * counts from the end), copied contiguous; any dtype. A strided view gathered by tp_gather_plan. */
#include "kernel_util.h"

/* narrow_copy.out(Tensor self, int dim, SymInt start, SymInt length, *, Tensor(a!) out) -> Tensor(a!):
 * args self, dim, start, length, out, out. */
enum { NARROW_SELF, NARROW_DIM, NARROW_START, NARROW_LENGTH, NARROW_OUT, NARROW_NARGS = 6 };

TP_KERNEL(aten, narrow_copy, out, tp_gather_state) {
  tp_tensor *in, *out, *ret;
  int64_t dim_arg, start, length;
  uint32_t dim;
  TP_CHECK_ARGS(call->nargs == NARROW_NARGS);
  TP_TRY(tp_arg_tensor(call->args, call->nargs, NARROW_SELF, &in));
  TP_TRY(tp_arg_int(call->args, call->nargs, NARROW_DIM, &dim_arg));
  TP_TRY(tp_arg_int(call->args, call->nargs, NARROW_START, &start));
  TP_TRY(tp_arg_int(call->args, call->nargs, NARROW_LENGTH, &length));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, NARROW_OUT, &out));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, NARROW_OUT + 1, &ret));
  const size_t esize = tp_dtype_size(in->dtype);
  if (in->dtype != out->dtype || esize == 0) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(in->dim > 0);
  TP_TRY(tp_normalize_dim(dim_arg, in->dim, &dim));
  const int64_t size = in->sizes[dim];
  if (start < 0) {
    start += size;
  }
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
