/* cortex_m::quantized_transpose_conv2d.out: int8 transposed convolution of NCHW-shaped
 * tensors, the legacy dim-order operator: contiguous tensors are NCHW in memory, channels-last
 * ones NHWC, read in place by the NHWC routine (s8_transpose_conv.h). */
#include "cortex_m/engines/s8_transpose_conv.h"

TP_KERNEL_WITH(cortex_m, quantized_transpose_conv2d, out, tp_s8_tconv_state, TP_KERNEL_DIM_ORDERS) {
  bool channels_last;
  TP_TRY(tp_s8_tconv_prepare(call, state, false));
  TP_TRY(tp_in_out_channels_last(call, &channels_last));
  *run = channels_last ? tp_s8_tconv_nhwc_run : tp_s8_tconv_nchw_run;
  return TP_OK;
}
