/* aten::slice_copy.Tensor_out: self[..., start:end:step, ...] along `dim` (Python slicing: None
 * means the whole dimension, negative bounds count from the end, bounds clamp to the size, step
 * >= 1); any dtype. prepare plans the gather of that strided view (tp_gather_plan, starting at
 * element start * stride); run moves rows whole where they are contiguous. */
#include "kernel_util.h"

/* slice_copy.Tensor_out(Tensor self, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1,
 * *, Tensor(a!) out) -> Tensor(a!): args self, dim, start, end, step, out, out. */
enum { SLICE_SELF, SLICE_DIM, SLICE_START, SLICE_END, SLICE_STEP, SLICE_OUT, SLICE_NARGS = 7 };

TP_KERNEL(aten, slice_copy, Tensor_out, tp_gather_state) {
  tp_tensor *in, *out, *ret;
  int64_t dim_arg, start, end, step;
  bool has_start, has_end;
  uint32_t dim;
  TP_CHECK_ARGS(nargs == SLICE_NARGS);
  TP_TRY(tp_arg_tensor(args, nargs, SLICE_SELF, &in));
  TP_TRY(tp_arg_int(args, nargs, SLICE_DIM, &dim_arg));
  TP_TRY(tp_arg_optional_int(args, nargs, SLICE_START, &start, &has_start));
  TP_TRY(tp_arg_optional_int(args, nargs, SLICE_END, &end, &has_end));
  TP_TRY(tp_arg_int(args, nargs, SLICE_STEP, &step));
  TP_TRY(tp_arg_tensor(args, nargs, SLICE_OUT, &out));
  TP_TRY(tp_arg_tensor(args, nargs, SLICE_OUT + 1, &ret));
  const size_t esize = tp_dtype_size(in->dtype);
  if (in->dtype != out->dtype || esize == 0) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(in->dim > 0 && step >= 1);
  TP_TRY(tp_normalize_dim(dim_arg, in->dim, &dim));
  const int64_t size = in->sizes[dim];
  const int64_t first = has_start ? tp_slice_bound(start, size) : 0;
  const int64_t last = has_end ? tp_slice_bound(end, size) : size;
  const int64_t count = last > first ? 1 + (last - first - 1) / step : 0; /* no overflow for any step */
  int32_t sizes[TP_MAX_DIM];
  uint32_t strides[TP_MAX_DIM];
  uint32_t stride = 1;
  for (uint32_t d = in->dim; d-- > 0;) {
    sizes[d] = d == dim ? (int32_t)count : in->sizes[d];
    strides[d] = d == dim ? stride * (uint32_t)step : stride;
    stride *= (uint32_t)in->sizes[d];
  }
  TP_CHECK_ARGS(tp_shape_is(out, in->dim, sizes));
  tp_gather_plan(state, in->dim, sizes, strides, esize, SLICE_OUT, run);
  /* the view's first element: start along dim, times dim's stride (the product of later sizes) */
  uint32_t inner = 1;
  for (uint32_t d = dim + 1; d < in->dim; d++) {
    inner *= (uint32_t)in->sizes[d];
  }
  state->base = count > 0 ? (uint32_t)first * inner : 0;
  return TP_OK;
}
