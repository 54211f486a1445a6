/* aten::ne.Tensor_out and aten::ne.Scalar_out: out = (self != other) elementwise: whether self
 * is not equal to other, with broadcasting for the tensor overload. Operands of any real dtype or
 * bool, compared in float when either is float (NaN compares unordered) and exactly in int64
 * otherwise; out of any real dtype or bool (usually bool) holds 1 or 0. */
#include "portable/engines/binary.h"

static float ne_f32(float a, float b) { return a != b ? 1.0f : 0.0f; }

static int64_t ne_int(int64_t a, int64_t b) { return a != b; }

static const tp_binary_fns ne_fns = {TP_BINARY_PREDICATE, ne_f32, ne_int, false};

TP_BINARY_KERNEL(aten, ne, Tensor_out, ne_fns)

TP_BINARY_SCALAR_KERNEL(aten, ne, Scalar_out, ne_fns)
