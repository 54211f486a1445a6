/* aten::select_copy.int_out: self[..., index, ...] along `dim` (that dimension removed; a negative
 * index counts from the end), copied contiguous; any dtype. A strided view starting at index *
 * stride, gathered by tp_gather_plan. */
#include "kernel_util.h"

/* select_copy.int_out(Tensor self, int dim, SymInt index, *, Tensor(a!) out) -> Tensor(a!): args
 * self, dim, index, out, out. */
enum { SELECT_SELF, SELECT_DIM, SELECT_INDEX, SELECT_OUT, SELECT_NARGS = 5 };

TP_KERNEL(aten, select_copy, int_out, tp_gather_state) {
  tp_tensor *in, *out, *ret;
  int64_t dim_arg, index;
  uint32_t dim;
  TP_CHECK_ARGS(call->nargs == SELECT_NARGS);
  TP_TRY(tp_arg_tensor(call->args, call->nargs, SELECT_SELF, &in));
  TP_TRY(tp_arg_int(call->args, call->nargs, SELECT_DIM, &dim_arg));
  TP_TRY(tp_arg_int(call->args, call->nargs, SELECT_INDEX, &index));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, SELECT_OUT, &out));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, SELECT_OUT + 1, &ret));
  const size_t esize = tp_dtype_size(in->dtype);
  if (in->dtype != out->dtype || esize == 0) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(in->dim > 0);
  TP_TRY(tp_normalize_dim(dim_arg, in->dim, &dim));
  const int64_t size = in->sizes[dim];
  if (index < 0) {
    index += size;
  }
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
