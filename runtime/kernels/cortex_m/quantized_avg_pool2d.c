/* cortex_m::quantized_avg_pool2d.out: int8 average pooling of NCHW-shaped tensors, the legacy
 * dim-order operator: contiguous tensors are NCHW in memory, channels-last ones NHWC, read in
 * place by the NHWC routine (s8_pool.h). */
#include "cortex_m/engines/s8_pool.h"

TP_KERNEL_WITH(cortex_m, quantized_avg_pool2d, out, tp_s8_pool_call, TP_KERNEL_DIM_ORDERS) {
  bool channels_last;
  TP_TRY(tp_s8_avg_pool_prepare(call, state, false));
  TP_TRY(tp_in_out_channels_last(call, &channels_last));
  *run = channels_last ? tp_s8_avg_pool_nhwc_run : tp_s8_avg_pool_nchw_run;
  return TP_OK;
}
