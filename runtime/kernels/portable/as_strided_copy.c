/* aten::as_strided_copy.out: the view of self's elements with the given sizes, element strides and
 * storage offset, copied contiguous; any dtype. Every element the view reaches must lie inside
 * self (checked in prepare); negative strides are refused, as ATen refuses them. */
#include "kernel_util.h"

/* as_strided_copy.out(Tensor self, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None, *,
 * Tensor(a!) out) -> Tensor(a!): args self, size, stride, storage_offset, out, out. */
enum { AS_STRIDED_SELF, AS_STRIDED_SIZE, AS_STRIDED_STRIDE, AS_STRIDED_OFFSET, AS_STRIDED_OUT, AS_STRIDED_NARGS = 6 };

TP_KERNEL(aten, as_strided_copy, out, tp_gather_state) {
  tp_tensor *in, *out, *ret;
  const int64_t *size, *stride;
  uint32_t nsize, nstride;
  int64_t offset;
  bool has_offset;
  TP_CHECK_ARGS(call->nargs == AS_STRIDED_NARGS);
  TP_TRY(tp_arg_tensor(call->args, call->nargs, AS_STRIDED_SELF, &in));
  TP_TRY(tp_arg_int_list(call->args, call->nargs, AS_STRIDED_SIZE, &size, &nsize));
  TP_TRY(tp_arg_int_list(call->args, call->nargs, AS_STRIDED_STRIDE, &stride, &nstride));
  TP_TRY(tp_arg_optional_int(call->args, call->nargs, AS_STRIDED_OFFSET, &offset, &has_offset));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, AS_STRIDED_OUT, &out));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, AS_STRIDED_OUT + 1, &ret));
  const size_t esize = tp_dtype_size(in->dtype);
  if (in->dtype != out->dtype || esize == 0) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(nsize == nstride && nsize <= TP_MAX_DIM);
  if (!has_offset) {
    offset = 0;
  }
  TP_CHECK_ARGS(offset >= 0);
  int32_t sizes[TP_MAX_DIM];
  uint32_t strides[TP_MAX_DIM];
  int64_t last = offset; /* the largest element offset the view reaches */
  bool empty = false;
  for (uint32_t d = 0; d < nsize; d++) {
    TP_CHECK_ARGS(size[d] >= 0 && size[d] <= INT32_MAX && stride[d] >= 0 && stride[d] <= INT32_MAX);
    sizes[d] = (int32_t)size[d];
    strides[d] = (uint32_t)stride[d];
    empty |= size[d] == 0;
    const int64_t reach = size[d] > 0 ? (size[d] - 1) * stride[d] : 0; /* < 2^62: no overflow */
    TP_CHECK_ARGS(empty || reach < (int64_t)in->numel);
    last += reach; /* at most TP_MAX_DIM terms below 2^32 each */
  }
  TP_CHECK_ARGS(tp_shape_is(out, nsize, sizes));
  TP_CHECK_ARGS(empty || last < (int64_t)in->numel);
  tp_gather_plan(state, nsize, sizes, strides, esize, AS_STRIDED_OUT, run);
  state->base = empty ? 0 : (uint32_t)offset;
  return TP_OK;
}
