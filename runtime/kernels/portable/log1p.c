/* aten::log1p.out: out = log(1 + x), accurate near 0, elementwise. self may be any real dtype or
 * bool (converted to float first, as ExecuTorch's portable kernel does); out is float32. libm's
 * float function: its results differ from glibc's by a few ulps on some C libraries (the
 * conformance tolerance). */
#include <math.h>

#include "portable/engines/unary.h"

static float log1p_f32(float x) { return log1pf(x); }

static const tp_unary_fns log1p_fns = {TP_UNARY_TO_FLOAT, log1p_f32, 0, 0};

TP_UNARY_KERNEL(aten, log1p, out, log1p_fns)
