/* aten::floor.out: out = the largest integer <= x; integer dtypes are copied. Float32 and the
 * integer dtypes, out of self's dtype (bool is refused, as ExecuTorch's portable kernel refuses
 * it). */
#include <math.h>

#include "portable/engines/unary.h"

static float floor_f32(float x) { return floorf(x); }

static int64_t floor_int(int64_t x) { return x; }

static const tp_unary_fns floor_fns = {TP_UNARY_SAME, floor_f32, floor_int, 0};

TP_UNARY_KERNEL(aten, floor, out, floor_fns)
