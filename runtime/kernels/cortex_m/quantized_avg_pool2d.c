/* cortex_m::quantized_avg_pool2d.out: int8 average pooling of NCHW tensors, the legacy
 * dim-order operator (tinypte's tensors are contiguous, so NCHW in memory; s8_pool.h). */
#include "cortex_m/engines/s8_pool.h"

TP_KERNEL(cortex_m, quantized_avg_pool2d, out, tp_s8_avg_pool_state) {
  TP_TRY(tp_s8_avg_pool_prepare(call, state, false));
  *run = tp_s8_avg_pool_nchw_run;
  return TP_OK;
}
