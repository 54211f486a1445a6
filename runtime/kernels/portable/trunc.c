/* aten::trunc.out: out = x rounded toward zero; integer dtypes are copied. Float32 and the integer
 * dtypes, out of self's dtype (bool is refused, as ExecuTorch's portable kernel refuses it). */
#include <math.h>

#include "portable/engines/unary.h"

static float trunc_f32(float x) { return truncf(x); }

static int64_t trunc_int(int64_t x) { return x; }

static const tp_unary_fns trunc_fns = {TP_UNARY_SAME, trunc_f32, trunc_int, 0};

TP_UNARY_KERNEL(aten, trunc, out, trunc_fns)
