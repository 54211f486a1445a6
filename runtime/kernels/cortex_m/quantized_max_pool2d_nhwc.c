/* cortex_m::quantized_max_pool2d_nhwc.out: int8 max pooling of NHWC tensors (s8_pool.h). */
#include "cortex_m/engines/s8_pool.h"

TP_KERNEL(cortex_m, quantized_max_pool2d_nhwc, out, tp_s8_pool_call) {
  tp_s8_max_pool_state st;
  TP_TRY(tp_s8_max_pool_prepare(call, state, true, &st));
  *run = tp_s8_pool_is_2x2(&st.g) ? tp_s8_max_pool_nhwc_2x2_run : tp_s8_max_pool_nhwc_run;
  return TP_OK;
}
