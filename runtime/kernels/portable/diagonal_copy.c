/* aten::diagonal_copy.out: the diagonal of self in the plane (dim1, dim2), shifted by `offset`
 * (> 0 above the main diagonal, < 0 below), as the last dimension of out with dim1 and dim2
 * removed; any dtype. A strided view (the diagonal's stride is the sum of the two) gathered
 * by tp_gather_plan. */
#include "kernel_util.h"

/* diagonal_copy.out(Tensor self, int offset=0, int dim1=0, int dim2=1, *, Tensor(a!) out) -> Tensor(a!):
 * args self, offset, dim1, dim2, out, out. */
enum { DIAG_SELF, DIAG_OFFSET, DIAG_DIM1, DIAG_DIM2, DIAG_OUT, DIAG_NARGS = 6 };

TP_KERNEL(aten, diagonal_copy, out, tp_gather_state) {
  tp_tensor *in, *out, *ret;
  int64_t offset, d1_arg, d2_arg;
  uint32_t d1, d2;
  TP_CHECK_ARGS(call->nargs == DIAG_NARGS);
  TP_TRY(tp_arg_tensor(call->args, call->nargs, DIAG_SELF, &in));
  TP_TRY(tp_arg_int(call->args, call->nargs, DIAG_OFFSET, &offset));
  TP_TRY(tp_arg_int(call->args, call->nargs, DIAG_DIM1, &d1_arg));
  TP_TRY(tp_arg_int(call->args, call->nargs, DIAG_DIM2, &d2_arg));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, DIAG_OUT, &out));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, DIAG_OUT + 1, &ret));
  const size_t esize = tp_dtype_size(in->dtype);
  if (in->dtype != out->dtype || esize == 0) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(in->dim >= 2);
  TP_TRY(tp_normalize_dim(d1_arg, in->dim, &d1));
  TP_TRY(tp_normalize_dim(d2_arg, in->dim, &d2));
  TP_CHECK_ARGS(d1 != d2 && offset > -INT32_MAX && offset < INT32_MAX);
  uint32_t in_strides[TP_MAX_DIM];
  tp_contiguous_strides(in, in_strides);
  /* the diagonal's length: rows and columns left after the offset */
  const int64_t rows = in->sizes[d1] - (offset < 0 ? -offset : 0);
  const int64_t cols = in->sizes[d2] - (offset > 0 ? offset : 0);
  const int64_t len = rows < 0 || cols < 0 ? 0 : rows < cols ? rows : cols;
  int32_t sizes[TP_MAX_DIM];
  uint32_t strides[TP_MAX_DIM];
  uint32_t n = 0;
  for (uint32_t d = 0; d < in->dim; d++) {
    if (d != d1 && d != d2) {
      sizes[n] = in->sizes[d];
      strides[n++] = in_strides[d];
    }
  }
  sizes[n] = (int32_t)len;
  strides[n++] = in_strides[d1] + in_strides[d2];
  TP_CHECK_ARGS(tp_shape_is(out, n, sizes));
  tp_gather_plan(state, n, sizes, strides, esize, DIAG_OUT, run);
  if (out->numel > 0) {
    state->base = offset >= 0 ? (uint32_t)offset * in_strides[d2] : (uint32_t)(-offset) * in_strides[d1];
  }
  return TP_OK;
}
