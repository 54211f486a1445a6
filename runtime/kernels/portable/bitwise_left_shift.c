/* aten::bitwise_left_shift.Tensor_out and .Tensor_Scalar_out: out = self << other (self shifted
 * left by other bits), elementwise with broadcasting for the tensor overload; the bits shifted out
 * are lost (the result wraps into out's dtype). Integer operands (float ones are refused); computed
 * in int64, so a shift at least the width of out's dtype gives what PyTorch gives (0, or the sign
 * for a signed right shift), and a negative shift gives 0 where C would be undefined. */
#include "portable/engines/binary.h"

static int64_t bitwise_left_shift_int(int64_t a, int64_t b) {
  if (b < 0 || b > 63) {
    return 0;
  }
  return (int64_t)((uint64_t)a << b);
}

static const tp_binary_fns bitwise_left_shift_fns = {TP_BINARY_ARITH, 0, bitwise_left_shift_int, false};

TP_BINARY_KERNEL(aten, bitwise_left_shift, Tensor_out, bitwise_left_shift_fns)

TP_BINARY_SCALAR_KERNEL(aten, bitwise_left_shift, Tensor_Scalar_out, bitwise_left_shift_fns)
