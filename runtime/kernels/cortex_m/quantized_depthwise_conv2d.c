/* cortex_m::quantized_depthwise_conv2d.out: weight [1, kh, kw, Cout], NCHW input and out (the portable routine).
 * The checks and routines are shared with the other int8 convolutions (s8_conv.h). */
#include "cortex_m/engines/s8_conv.h"

TP_KERNEL(cortex_m, quantized_depthwise_conv2d, out, tp_s8_conv) { return tp_s8_conv_prepare(call, TP_S8_DEPTHWISE_NCHW, state, run); }
