/* aten::round.out: out = x rounded to the nearest integer, halves to even (rintf in the default
 * rounding mode); integer dtypes are copied. Float32 and the integer dtypes, out of self's dtype
 * (bool is refused, as ExecuTorch's portable kernel refuses it). */
#include <math.h>

#include "portable/engines/unary.h"

static float round_f32(float x) { return rintf(x); }

static int64_t round_int(int64_t x) { return x; }

static const tp_unary_fns round_fns = {TP_UNARY_SAME, round_f32, round_int, 0};

TP_UNARY_KERNEL(aten, round, out, round_fns)
