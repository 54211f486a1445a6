/* aten::neg.out: out = -self elementwise, float32 and the integer dtypes, out of self's dtype
 * (bool refused, like ExecuTorch's portable kernel). Integers wrap: -INT_MIN is INT_MIN. */
#include "portable/engines/unary.h"

static float neg_f32(float x) { return -x; }

static int64_t neg_int(int64_t x) { return (int64_t)(0u - (uint64_t)x); }

static const tp_unary_fns neg_fns = {TP_UNARY_SAME, neg_f32, neg_int, 0};

TP_UNARY_KERNEL(aten, neg, out, neg_fns)
