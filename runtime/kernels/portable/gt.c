/* aten::gt.Tensor_out and aten::gt.Scalar_out: out = (self > other) elementwise: whether self
 * is greater than other, with broadcasting for the tensor overload. Operands of any real dtype or
 * bool, compared in float when either is float (NaN compares unordered) and exactly in int64
 * otherwise; out of any real dtype or bool (usually bool) holds 1 or 0. */
#include "portable/engines/binary.h"

static float gt_f32(float a, float b) { return a > b ? 1.0f : 0.0f; }

static int64_t gt_int(int64_t a, int64_t b) { return a > b; }

static const tp_binary_fns gt_fns = {TP_BINARY_PREDICATE, gt_f32, gt_int, false};

TP_BINARY_KERNEL(aten, gt, Tensor_out, gt_fns)

TP_BINARY_SCALAR_KERNEL(aten, gt, Scalar_out, gt_fns)
