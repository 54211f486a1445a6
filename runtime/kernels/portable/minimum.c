/* aten::minimum.out: out = the smaller of self and other, elementwise with broadcasting and type
 * promotion; a NaN operand gives NaN (PyTorch's rule, unlike fminf). */
#include "portable/engines/binary.h"

static float minimum_f32(float a, float b) { return a != a ? a : b != b ? b : b < a ? b : a; }

static int64_t minimum_int(int64_t a, int64_t b) { return b < a ? b : a; }

static const tp_binary_fns minimum_fns = {TP_BINARY_ARITH, minimum_f32, minimum_int, false};

TP_BINARY_KERNEL(aten, minimum, out, minimum_fns)
