/* aten::exp.out: out = e ** x, elementwise. self may be any real dtype or bool (converted
 * to float first, as ExecuTorch's portable kernel does); out is float32. libm's float function:
 * its results differ from glibc's by a few ulps on some C libraries (the conformance tolerance). */
#include <math.h>

#include "portable/engines/unary.h"

static float exp_f32(float x) { return expf(x); }

static const tp_unary_fns exp_fns = {TP_UNARY_TO_FLOAT, exp_f32, 0, 0};

TP_UNARY_KERNEL(aten, exp, out, exp_fns)
