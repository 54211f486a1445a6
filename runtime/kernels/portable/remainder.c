/* aten::remainder.Tensor_out and aten::remainder.Scalar_out: out = self modulo other with the
 * divisor's sign (Python's %), elementwise with broadcasting and type promotion. Floats:
 * fmodf(a, b), plus b when the signs of a and b differ and that is not 0 (ExecuTorch's
 * arithmetic); integers: C's % (ExecuTorch's integer path), failing the run with
 * TP_ERR_DIVISION_BY_ZERO on a zero divisor. */
#include <math.h>

#include "portable/engines/binary.h"

static float remainder_f32(float a, float b) {
  float r = fmodf(a, b);
  if (((a < 0.0f) != (b < 0.0f)) && r != 0.0f) {
    r += b;
  }
  return r;
}

static int64_t remainder_int(int64_t a, int64_t b) { return b == -1 ? 0 : a % b; }

static const tp_binary_fns remainder_fns = {TP_BINARY_ARITH, remainder_f32, remainder_int, true};

TP_BINARY_KERNEL(aten, remainder, Tensor_out, remainder_fns)

TP_BINARY_SCALAR_KERNEL(aten, remainder, Scalar_out, remainder_fns)
