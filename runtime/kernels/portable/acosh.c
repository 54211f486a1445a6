/* aten::acosh.out: out = inverse hyperbolic cosine, elementwise. self may be any real dtype or bool
 * (converted to float first, as ExecuTorch's portable kernel does); out is float32. libm's float
 * function: its results differ from glibc's by a few ulps on some C libraries (the conformance
 * tolerance). */
#include <math.h>

#include "portable/engines/unary.h"

static float acosh_f32(float x) { return acoshf(x); }

static const tp_unary_fns acosh_fns = {TP_UNARY_TO_FLOAT, acosh_f32, 0, 0};

TP_UNARY_KERNEL(aten, acosh, out, acosh_fns)
