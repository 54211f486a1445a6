/* cortex_m::quantized_transpose_conv2d_nhwc.out: int8 transposed convolution of NHWC tensors
 * (s8_transpose_conv.h). */
#include "cortex_m/engines/s8_transpose_conv.h"

TP_KERNEL(cortex_m, quantized_transpose_conv2d_nhwc, out, tp_s8_tconv_state) {
  TP_TRY(tp_s8_tconv_prepare(call, state, true));
  *run = tp_s8_tconv_nhwc_run;
  return TP_OK;
}
