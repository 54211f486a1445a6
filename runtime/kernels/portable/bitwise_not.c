/* aten::bitwise_not.out: out = ~self for the integer dtypes, logical not for bool, out of self's
 * dtype (float32 refused, like ExecuTorch's portable kernel). */
#include "portable/engines/unary.h"

static int64_t bitwise_not_int(int64_t x) { return ~x; }

static int64_t bitwise_not_bool(int64_t x) { return x == 0; }

static const tp_unary_fns bitwise_not_fns = {TP_UNARY_SAME, 0, bitwise_not_int, bitwise_not_bool};

TP_UNARY_KERNEL(aten, bitwise_not, out, bitwise_not_fns)
