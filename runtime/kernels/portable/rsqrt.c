/* aten::rsqrt.out: out = 1 / sqrt(x) (the division in double, like ExecuTorch's `1.0 /
 * std::sqrt(x)`), elementwise. self may be any real dtype or bool (converted to float first, as
 * ExecuTorch's portable kernel does); out is float32. libm's float function: its results differ
 * from glibc's by a few ulps on some C libraries (the conformance tolerance). */
#include <math.h>

#include "portable/engines/unary.h"

static float rsqrt_f32(float x) { return (float)(1.0 / (double)sqrtf(x)); }

static const tp_unary_fns rsqrt_fns = {TP_UNARY_TO_FLOAT, rsqrt_f32, 0, 0};

TP_UNARY_KERNEL(aten, rsqrt, out, rsqrt_fns)
