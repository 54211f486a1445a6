/* cortex_m::quantized_max_pool2d.out: int8 max pooling of NCHW-shaped tensors, the legacy
 * dim-order operator: contiguous tensors are NCHW in memory, channels-last ones NHWC, read in
 * place by the NHWC routines (s8_pool.h). */
#include "cortex_m/engines/s8_pool.h"

TP_KERNEL_WITH(cortex_m, quantized_max_pool2d, out, tp_s8_pool_call, TP_KERNEL_DIM_ORDERS) {
  bool channels_last;
  tp_s8_max_pool_state st;
  TP_TRY(tp_s8_max_pool_prepare(call, state, false, &st));
  TP_TRY(tp_in_out_channels_last(call, &channels_last));
  const bool two_by_two = tp_s8_pool_is_2x2(&st.g);
  if (channels_last) {
    *run = two_by_two ? tp_s8_max_pool_nhwc_2x2_run : tp_s8_max_pool_nhwc_run;
  } else {
    *run = two_by_two ? tp_s8_max_pool_nchw_2x2_run : tp_s8_max_pool_nchw_run;
  }
  return TP_OK;
}
