/* dim_order_ops::_to_dim_order_copy.out: what ExecuTorch 1.x emits for Tensor.to(dtype): a copy of
 * self converted to out's dtype (any pair of float32, int8, uint8, int16, int32, int64 and bool;
 * engines/convert.h). tinypte tensors are contiguous, so dim_order must be None or 0..n-1. */
#include "engines/convert.h"

/* _to_dim_order_copy.out(Tensor self, *, bool non_blocking=False, int[]? dim_order=None, Tensor(a!) out)
 * -> Tensor(a!): args self, non_blocking, dim_order, out, out. */
enum { TO_DIM_ORDER_SELF, TO_DIM_ORDER_NON_BLOCKING, TO_DIM_ORDER_ORDER, TO_DIM_ORDER_OUT };

TP_KERNEL_WITH(dim_order_ops, _to_dim_order_copy, out, tp_convert_state, TP_KERNEL_DYNAMIC_SHAPES) {
  tp_tensor *in, *out;
  const int64_t *order;
  uint32_t n;
  TP_TRY(tp_elementwise_args(call, TO_DIM_ORDER_OUT, &in, &out));
  TP_TRY(tp_arg_optional_int_list(call->args, call->nargs, TO_DIM_ORDER_ORDER, &order, &n));
  for (uint32_t d = 0; d < n; d++) {
    TP_CHECK_ARGS(order[d] == (int64_t)d);
  }
  return tp_convert_prepare(state, in, out, TO_DIM_ORDER_OUT, run);
}
