/* cortex_m::quantized_transpose_conv2d.out: int8 transposed convolution of NCHW tensors, the
 * legacy dim-order operator (tinypte's tensors are contiguous, so NCHW in memory;
 * s8_transpose_conv.h). */
#include "cortex_m/engines/s8_transpose_conv.h"

TP_KERNEL(cortex_m, quantized_transpose_conv2d, out, tp_s8_tconv_state) {
  TP_TRY(tp_s8_tconv_prepare(call, state, false));
  *run = tp_s8_tconv_nchw_run;
  return TP_OK;
}
