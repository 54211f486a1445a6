/* cortex_m::minimum.out: the elementwise minimum of two int8 tensors, with broadcasting
 * (torch.minimum, the backend's reference). */
#include "cortex_m/engines/int8_util.h"

/* minimum.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!) */
enum { MIN_SELF, MIN_OTHER, MIN_OUT };

static tp_status minimum_run(const tp_kernel_call *call) {
  const tp_bcast_packed *bcast = call->state;
  TP_S8_BINARY_APPLY(call, bcast, MIN_OTHER, MIN_OUT, y < x ? y : x);
  return TP_OK;
}

TP_KERNEL_WITH(cortex_m, minimum, out, tp_bcast_packed, TP_KERNEL_DIM_ORDERS) {
  TP_TRY(tp_s8_binary_prepare(call, MIN_OTHER, MIN_OUT, state));
  *run = minimum_run;
  return TP_OK;
}
