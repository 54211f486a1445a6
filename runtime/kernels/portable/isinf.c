/* aten::isinf.out: out (bool) = whether self is +inf or -inf, elementwise; self any real dtype or
 * bool (integers are never infinite). */
#include "portable/engines/unary.h"

static float isinf_f32(float x) { return x == __builtin_inff() || x == -__builtin_inff() ? 1.0f : 0.0f; }

static const tp_unary_fns isinf_fns = {TP_UNARY_TO_BOOL, isinf_f32, 0, 0};

TP_UNARY_KERNEL(aten, isinf, out, isinf_fns)
