/* cortex_m::quantized_conv2d.out: weight OHWI, NCHW-shaped input and out, the legacy dim-order
 * operator: contiguous tensors are NCHW in memory (the portable routine), channels-last ones
 * NHWC, read in place by the fast routines. The checks and routines are shared with the other
 * int8 convolutions (s8_conv.h). */
#include "cortex_m/engines/s8_conv_call.h"

TP_KERNEL_WITH(cortex_m, quantized_conv2d, out, tp_s8_conv_call, TP_KERNEL_DIM_ORDERS) {
  return tp_s8_conv_prepare(call, TP_S8_CONV_NCHW, state, run);
}
