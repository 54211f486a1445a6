/* aten::reciprocal.out: out = 1 / x (divided in double, then rounded, like ExecuTorch's `1.0 / x`),
 * elementwise. self may be any real dtype or bool (converted to float first, as ExecuTorch's
 * portable kernel does); out is float32. libm's float function: its results differ from glibc's by
 * a few ulps on some C libraries (the conformance tolerance). */
#include <math.h>

#include "portable/engines/unary.h"

static float reciprocal_f32(float x) { return (float)(1.0 / (double)x); }

static const tp_unary_fns reciprocal_fns = {TP_UNARY_TO_FLOAT, reciprocal_f32, 0, 0};

TP_UNARY_KERNEL(aten, reciprocal, out, reciprocal_fns)
