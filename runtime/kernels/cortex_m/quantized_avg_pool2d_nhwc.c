/* cortex_m::quantized_avg_pool2d_nhwc.out: int8 average pooling of NHWC tensors (s8_pool.h). */
#include "cortex_m/engines/s8_pool.h"

TP_KERNEL(cortex_m, quantized_avg_pool2d_nhwc, out, tp_s8_pool_call) {
  TP_TRY(tp_s8_avg_pool_prepare(call, state, true));
  *run = tp_s8_avg_pool_nhwc_run;
  return TP_OK;
}
