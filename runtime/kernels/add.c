/* aten::add.out and aten::add.Scalar_out: out = self + alpha * other (add_sub.c has the arithmetic). */
#include "add_sub.h"

/* add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!) */
TP_KERNEL_LEGACY(aten, add, out) { return tp_add_sub_out(args, nargs, +1); }

/* add.Scalar_out(Tensor self, Scalar other, Scalar alpha=1, *, Tensor(a!) out) -> Tensor(a!) */
TP_KERNEL_LEGACY(aten, add, Scalar_out) { return tp_add_sub_scalar_out(args, nargs, +1); }
