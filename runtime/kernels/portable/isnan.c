/* aten::isnan.out: out (bool) = whether self is NaN, elementwise; self any real dtype or bool
 * (integers are never NaN). */
#include "portable/engines/unary.h"

static float isnan_f32(float x) { return x != x ? 1.0f : 0.0f; }

static const tp_unary_fns isnan_fns = {TP_UNARY_TO_BOOL, isnan_f32, 0, 0};

TP_UNARY_KERNEL(aten, isnan, out, isnan_fns)
