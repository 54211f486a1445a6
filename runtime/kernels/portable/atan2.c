/* aten::atan2.out: out = the angle of the point (other, self), atan2f(self, other), elementwise
 * with broadcasting; integer operands convert to float, out is float32. */
#include <math.h>

#include "portable/engines/binary.h"

static float atan2_f32(float a, float b) { return atan2f(a, b); }

static const tp_binary_fns atan2_fns = {TP_BINARY_ARITH, atan2_f32, 0, false};

TP_BINARY_KERNEL(aten, atan2, out, atan2_fns)
