/* dim_order_ops::_clone_dim_order.out: what ExecuTorch 1.x emits for clone() (and
 * .contiguous() / .to(memory_format=...) on a value it keeps): self copied into out of the same
 * dtype, in out's dim order (engines/dim_order_copy.h). */
#include "portable/engines/dim_order_copy.h"

/* (Tensor self, *, bool non_blocking=False, int[]? dim_order=None, Tensor(a!) out) -> Tensor(a!):
 * args self, non_blocking, dim_order, out, out. */
enum { COPY_SELF, COPY_NON_BLOCKING, COPY_DIM_ORDER, COPY_OUT, COPY_NARGS = 5 };

TP_KERNEL_WITH(dim_order_ops, _clone_dim_order, out, tp_dim_order_copy_state,
               TP_KERNEL_DYNAMIC_SHAPES | TP_KERNEL_DIM_ORDERS) {
  bool non_blocking;
  TP_CHECK_ARGS(call->nargs == COPY_NARGS);
  TP_TRY(tp_arg_bool(call->args, call->nargs, COPY_NON_BLOCKING, &non_blocking));
  TP_TRY(tp_dim_order_copy_prepare(state, call, COPY_DIM_ORDER, COPY_OUT, tp_dim_order_same_dtype_copy, run));
  /* Both are checked tensors now; a clone keeps the dtype. */
  return call->args[COPY_SELF]->as.tensor->dtype == call->args[COPY_OUT]->as.tensor->dtype ? TP_OK
                                                                                            : TP_ERR_KERNEL_DTYPE;
}
