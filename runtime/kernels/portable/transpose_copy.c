/* aten::transpose_copy.int_out: self with dimensions dim0 and dim1 swapped, copied contiguous;
 * any dtype. A strided view gathered by tp_gather_plan. */
#include "kernel_util.h"

/* transpose_copy.int_out(Tensor self, int dim0, int dim1, *, Tensor(a!) out) -> Tensor(a!):
 * args self, dim0, dim1, out, out. */
enum { TRANSPOSE_SELF, TRANSPOSE_DIM0, TRANSPOSE_DIM1, TRANSPOSE_OUT, TRANSPOSE_NARGS = 5 };

TP_KERNEL(aten, transpose_copy, int_out, tp_gather_state) {
  tp_tensor *in, *out, *ret;
  int64_t d0, d1;
  uint32_t a, b;
  TP_CHECK_ARGS(call->nargs == TRANSPOSE_NARGS);
  TP_TRY(tp_arg_tensor(call->args, call->nargs, TRANSPOSE_SELF, &in));
  TP_TRY(tp_arg_int(call->args, call->nargs, TRANSPOSE_DIM0, &d0));
  TP_TRY(tp_arg_int(call->args, call->nargs, TRANSPOSE_DIM1, &d1));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, TRANSPOSE_OUT, &out));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, TRANSPOSE_OUT + 1, &ret));
  const size_t esize = tp_dtype_size(in->dtype);
  if (in->dtype != out->dtype || esize == 0) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_TRY(tp_normalize_dim(d0, in->dim, &a));
  TP_TRY(tp_normalize_dim(d1, in->dim, &b));
  int32_t sizes[TP_MAX_DIM];
  uint32_t strides[TP_MAX_DIM];
  tp_contiguous_strides(in, strides);
  for (uint32_t d = 0; d < in->dim; d++) {
    sizes[d] = in->sizes[d];
  }
  if (in->dim > 0) {
    const int32_t s = sizes[a];
    const uint32_t t = strides[a];
    sizes[a] = sizes[b];
    strides[a] = strides[b];
    sizes[b] = s;
    strides[b] = t;
  }
  TP_CHECK_ARGS(tp_shape_is(out, in->dim, sizes));
  tp_gather_plan(state, in->dim, sizes, strides, esize, TRANSPOSE_OUT, run);
  return TP_OK;
}
