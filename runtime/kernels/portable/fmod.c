/* aten::fmod.Tensor_out and aten::fmod.Scalar_out: out = the remainder of self / other truncated
 * toward zero (the result has self's sign), elementwise with broadcasting and type promotion.
 * Floats use fmodf (a zero divisor gives NaN); integers fail the run with
 * TP_ERR_DIVISION_BY_ZERO on a zero divisor, as ExecuTorch's kernel fails. */
#include <math.h>

#include "portable/engines/binary.h"

static float fmod_f32(float a, float b) { return fmodf(a, b); }

static int64_t fmod_int(int64_t a, int64_t b) { return b == -1 ? 0 : a % b; }

static const tp_binary_fns fmod_fns = {TP_BINARY_ARITH, fmod_f32, fmod_int, true};

TP_BINARY_KERNEL(aten, fmod, Tensor_out, fmod_fns)

TP_BINARY_SCALAR_KERNEL(aten, fmod, Scalar_out, fmod_fns)
