/* aten::unfold_copy.out: every window of `size` elements, `step` apart, along `dimension`: that
 * dimension becomes the window count ((n - size) / step + 1) and a new last dimension of `size`
 * holds each window; any dtype. A strided view gathered by tp_gather_plan. */
#include "kernel_util.h"

/* unfold_copy.out(Tensor self, int dimension, int size, int step, *, Tensor(a!) out) -> Tensor(a!):
 * args self, dimension, size, step, out, out. */
enum { UNFOLD_SELF, UNFOLD_DIM, UNFOLD_SIZE, UNFOLD_STEP, UNFOLD_OUT, UNFOLD_NARGS = 6 };

TP_KERNEL(aten, unfold_copy, out, tp_gather_state) {
  tp_tensor *in, *out, *ret;
  int64_t dim_arg, size, step;
  uint32_t dim;
  TP_CHECK_ARGS(call->nargs == UNFOLD_NARGS);
  TP_TRY(tp_arg_tensor(call->args, call->nargs, UNFOLD_SELF, &in));
  TP_TRY(tp_arg_int(call->args, call->nargs, UNFOLD_DIM, &dim_arg));
  TP_TRY(tp_arg_int(call->args, call->nargs, UNFOLD_SIZE, &size));
  TP_TRY(tp_arg_int(call->args, call->nargs, UNFOLD_STEP, &step));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, UNFOLD_OUT, &out));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, UNFOLD_OUT + 1, &ret));
  const size_t esize = tp_dtype_size(in->dtype);
  if (in->dtype != out->dtype || esize == 0) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(in->dim > 0 && in->dim < TP_MAX_DIM);
  TP_TRY(tp_normalize_dim(dim_arg, in->dim, &dim));
  const int64_t n = in->sizes[dim];
  TP_CHECK_ARGS(step > 0 && size >= 0 && size <= n);
  int32_t sizes[TP_MAX_DIM];
  uint32_t strides[TP_MAX_DIM];
  tp_contiguous_strides(in, strides);
  for (uint32_t d = 0; d < in->dim; d++) {
    sizes[d] = d == dim ? (int32_t)((n - size) / step + 1) : in->sizes[d];
  }
  sizes[in->dim] = (int32_t)size;
  strides[in->dim] = strides[dim];
  strides[dim] *= (uint32_t)step;
  TP_CHECK_ARGS(tp_shape_is(out, in->dim + 1, sizes));
  tp_gather_plan(state, in->dim + 1, sizes, strides, esize, UNFOLD_OUT, run);
  return TP_OK;
}
