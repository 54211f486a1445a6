/* aten::maximum.out: out = the larger of self and other, elementwise with broadcasting and type
 * promotion; a NaN operand gives NaN (PyTorch's rule, unlike fmaxf). */
#include "portable/engines/binary.h"

static float maximum_f32(float a, float b) { return a != a ? a : b != b ? b : a < b ? b : a; }

static int64_t maximum_int(int64_t a, int64_t b) { return a < b ? b : a; }

static const tp_binary_fns maximum_fns = {TP_BINARY_ARITH, maximum_f32, maximum_int, false};

TP_BINARY_KERNEL(aten, maximum, out, maximum_fns)
