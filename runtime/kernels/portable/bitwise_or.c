/* aten::bitwise_or.Tensor_out and aten::bitwise_or.Scalar_out: out = self | other (bitwise or),
 * elementwise with broadcasting for the tensor overload. Integer and bool operands (for bools
 * the logical operator); the result wraps into out's dtype. Float operands are refused, as in
 * ExecuTorch's portable kernel. */
#include "portable/engines/binary.h"

static int64_t bitwise_or_int(int64_t a, int64_t b) { return a | b; }

static const tp_binary_fns bitwise_or_fns = {TP_BINARY_ARITH, 0, bitwise_or_int, false};

TP_BINARY_KERNEL(aten, bitwise_or, Tensor_out, bitwise_or_fns)

TP_BINARY_SCALAR_KERNEL(aten, bitwise_or, Scalar_out, bitwise_or_fns)
