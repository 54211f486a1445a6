/* aten::empty.out and dim_order_ops::_empty_dim_order.out: an out of the given size whose
 * contents are unspecified. tinypte writes zeros, so a program that reads them anyway gets the
 * same answer on every board (ExecuTorch leaves the memory as it was). */
#include "portable/engines/fill.h"

/* empty.out(SymInt[] size, *, MemoryFormat? memory_format=None, Tensor(a!) out) -> Tensor(a!): args
 * size, memory_format, out, out. */
TP_KERNEL(aten, empty, out, tp_fill_state) {
  tp_tensor *out;
  TP_TRY(tp_fill_sized_out(call, 0, 2, &out));
  return tp_fill_state_prepare(state, out, 2, 0.0, run);
}

/* _empty_dim_order.out(int[] size, *, int[]? dim_order=None, Tensor(a!) out) -> Tensor(a!): args size,
 * dim_order, out, out. The dim order must be None or contiguous (0, 1, ..., n-1). */
TP_KERNEL(dim_order_ops, _empty_dim_order, out, tp_fill_state) {
  tp_tensor *out;
  const int64_t *order;
  uint32_t n;
  TP_TRY(tp_fill_sized_out(call, 0, 2, &out));
  TP_TRY(tp_arg_optional_int_list(call->args, call->nargs, 1, &order, &n));
  for (uint32_t d = 0; d < n; d++) {
    TP_CHECK_ARGS(order[d] == (int64_t)d);
  }
  return tp_fill_state_prepare(state, out, 2, 0.0, run);
}
