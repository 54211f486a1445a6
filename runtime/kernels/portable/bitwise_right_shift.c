/* aten::bitwise_right_shift.Tensor_out and .Tensor_Scalar_out: out = self >> other (self shifted
 * right by other bits), elementwise with broadcasting for the tensor overload; arithmetic for
 * signed dtypes. Integer operands (float ones are refused); computed in int64, so a shift at least
 * the width of out's dtype gives what PyTorch gives (0, or the sign for a signed right shift), and
 * a negative shift gives 0 where C would be undefined. */
#include "portable/engines/binary.h"

static int64_t bitwise_right_shift_int(int64_t a, int64_t b) {
  if (b < 0) {
    return 0;
  }
  if (b > 63) {
    return a >> 63;
  }
  return a >> b;
}

static const tp_binary_fns bitwise_right_shift_fns = {TP_BINARY_ARITH, 0, bitwise_right_shift_int, false};

TP_BINARY_KERNEL(aten, bitwise_right_shift, Tensor_out, bitwise_right_shift_fns)

TP_BINARY_SCALAR_KERNEL(aten, bitwise_right_shift, Tensor_Scalar_out, bitwise_right_shift_fns)
