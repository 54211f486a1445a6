/* aten::sign.out: out = -1, 0 or 1 by the sign of self, elementwise, out of self's dtype: float32
 * (NaN stays NaN, -0.0 gives 0), the integer dtypes, and bool (copied). */
#include "portable/engines/unary.h"

static float sign_f32(float x) { return x != x ? x : (float)((x > 0.0f) - (x < 0.0f)); }

static int64_t sign_int(int64_t x) { return (x > 0) - (x < 0); }

static int64_t sign_bool(int64_t x) { return x; }

static const tp_unary_fns sign_fns = {TP_UNARY_SAME, sign_f32, sign_int, sign_bool};

TP_UNARY_KERNEL(aten, sign, out, sign_fns)
