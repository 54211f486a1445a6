/* aten::ceil.out: out = the smallest integer >= x; integer dtypes are copied. Float32 and the
 * integer dtypes, out of self's dtype (bool is refused, as ExecuTorch's portable kernel refuses
 * it). */
#include <math.h>

#include "portable/engines/unary.h"

static float ceil_f32(float x) { return ceilf(x); }

static int64_t ceil_int(int64_t x) { return x; }

static const tp_unary_fns ceil_fns = {TP_UNARY_SAME, ceil_f32, ceil_int, 0};

TP_UNARY_KERNEL(aten, ceil, out, ceil_fns)
