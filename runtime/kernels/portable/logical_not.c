/* aten::logical_not.out: out = (self == 0), elementwise; self and out any real dtype or bool
 * (out is usually bool: true/false, or 1/0 in a numeric out). */
#include "portable/engines/unary.h"

static float logical_not_f32(float x) { return x == 0.0f ? 1.0f : 0.0f; }

static const tp_unary_fns logical_not_fns = {TP_UNARY_TO_ANY, logical_not_f32, 0, 0};

TP_UNARY_KERNEL(aten, logical_not, out, logical_not_fns)
