/* cortex_m::quantized_depthwise_conv2d_nhwc.out: weight [1, kh, kw, Cout], NHWC input and out.
 * The checks and routines are shared with the other int8 convolutions (s8_conv.h). */
#include "cortex_m/engines/s8_conv_call.h"

TP_KERNEL(cortex_m, quantized_depthwise_conv2d_nhwc, out, tp_s8_conv_call) { return tp_s8_conv_prepare(call, TP_S8_DEPTHWISE_NHWC, state, run); }
