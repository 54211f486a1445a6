/* dim_order_ops::_to_dim_order_copy.out: what ExecuTorch 1.x emits for Tensor.to(dtype) and
 * .to(memory_format=...): a copy of self converted to out's dtype (any pair of float32, int8,
 * uint8, int16, int32, int64 and bool; engines/convert.h), or laid out in out's dim order
 * (contiguous <-> channels-last; engines/dim_order_copy.h). */
#include "portable/engines/dim_order_copy.h"

/* _to_dim_order_copy.out(Tensor self, *, bool non_blocking=False, int[]? dim_order=None, Tensor(a!) out)
 * -> Tensor(a!): args self, non_blocking, dim_order, out, out. */
enum { TO_DIM_ORDER_SELF, TO_DIM_ORDER_NON_BLOCKING, TO_DIM_ORDER_ORDER, TO_DIM_ORDER_OUT };

/* Self into out of one memory order: converted to out's dtype (engines/convert.h). */
static tp_status converted_copy(tp_dim_order_copy_state *state, const tp_tensor *in, tp_tensor *out, uint32_t out_slot,
                                tp_kernel_run_fn *run) {
  return tp_convert_prepare(&state->convert, in, out, out_slot, run);
}

TP_KERNEL_WITH(dim_order_ops, _to_dim_order_copy, out, tp_dim_order_copy_state,
               TP_KERNEL_DYNAMIC_SHAPES | TP_KERNEL_DIM_ORDERS) {
  return tp_dim_order_copy_prepare(state, call, TO_DIM_ORDER_ORDER, TO_DIM_ORDER_OUT, converted_copy, run);
}
