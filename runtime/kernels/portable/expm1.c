/* aten::expm1.out: out = e ** x - 1, accurate near 0, elementwise. self may be any real dtype or
 * bool (converted to float first, as ExecuTorch's portable kernel does); out is float32. libm's
 * float function: its results differ from glibc's by a few ulps on some C libraries (the
 * conformance tolerance). */
#include <math.h>

#include "portable/engines/unary.h"

static float expm1_f32(float x) { return expm1f(x); }

static const tp_unary_fns expm1_fns = {TP_UNARY_TO_FLOAT, expm1_f32, 0, 0};

TP_UNARY_KERNEL(aten, expm1, out, expm1_fns)
