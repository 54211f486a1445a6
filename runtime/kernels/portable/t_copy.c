/* aten::t_copy.out: a 2-D self transposed (0-D and 1-D self copied as they are), contiguous; any
 * dtype. A strided view gathered by tp_gather_plan. */
#include "kernel_util.h"

/* t_copy.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!): args self, out, out. */
enum { T_SELF, T_OUT, T_NARGS = 3 };

TP_KERNEL(aten, t_copy, out, tp_gather_state) {
  tp_tensor *in, *out, *ret;
  TP_CHECK_ARGS(call->nargs == T_NARGS);
  TP_TRY(tp_arg_tensor(call->args, call->nargs, T_SELF, &in));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, T_OUT, &out));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, T_OUT + 1, &ret));
  const size_t esize = tp_dtype_size(in->dtype);
  if (in->dtype != out->dtype || esize == 0) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(in->dim <= 2);
  int32_t sizes[2];
  uint32_t strides[2];
  tp_contiguous_strides(in, strides);
  for (uint32_t d = 0; d < in->dim; d++) {
    sizes[d] = in->sizes[in->dim - 1 - d];
  }
  if (in->dim == 2) {
    const uint32_t t = strides[0];
    strides[0] = strides[1];
    strides[1] = t;
  }
  TP_CHECK_ARGS(tp_shape_is(out, in->dim, sizes));
  tp_gather_plan(state, in->dim, sizes, strides, esize, T_OUT, run);
  return TP_OK;
}
