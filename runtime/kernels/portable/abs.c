/* aten::abs.out: out = |self| elementwise, float32 and the integer dtypes, out of self's dtype
 * (bool refused, like ExecuTorch's portable kernel). Integers wrap: abs(INT_MIN) is INT_MIN. */
#include "portable/engines/unary.h"

static float abs_f32(float x) { return x < 0.0f ? -x : x; }

static int64_t abs_int(int64_t x) { return x < 0 ? (int64_t)(0u - (uint64_t)x) : x; }

static const tp_unary_fns abs_fns = {TP_UNARY_SAME, abs_f32, abs_int, 0};

TP_UNARY_KERNEL(aten, abs, out, abs_fns)
