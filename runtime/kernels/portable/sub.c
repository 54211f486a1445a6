/* aten::sub.out and aten::sub.Scalar_out: out = self - alpha * other (engines/add_sub.c has the
 * checks, the states and the arithmetic, shared with add). */
#include "portable/engines/add_sub.h"

/* sub.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!) */
TP_KERNEL_WITH(aten, sub, out, tp_add_sub_state, TP_KERNEL_DYNAMIC_SHAPES | TP_KERNEL_DIM_ORDERS) { return tp_add_sub_prepare(call, state, run, -1); }

/* sub.Scalar_out(Tensor self, Scalar other, Scalar alpha=1, *, Tensor(a!) out) -> Tensor(a!) */
TP_KERNEL_WITH(aten, sub, Scalar_out, tp_add_sub_scalar_state, TP_KERNEL_DYNAMIC_SHAPES | TP_KERNEL_DIM_ORDERS) { return tp_add_sub_scalar_prepare(call, state, run, -1); }
