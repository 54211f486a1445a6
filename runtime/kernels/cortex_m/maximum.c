/* cortex_m::maximum.out: the elementwise maximum of two int8 tensors, with broadcasting
 * (torch.maximum, the backend's reference). */
#include "cortex_m/engines/int8_util.h"

/* maximum.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!) */
enum { MAX_SELF, MAX_OTHER, MAX_OUT };

static tp_status maximum_run(const tp_kernel_call *call) {
  const tp_bcast_packed *bcast = call->state;
  TP_S8_BINARY_APPLY(call, bcast, MAX_OTHER, MAX_OUT, y > x ? y : x);
  return TP_OK;
}

TP_KERNEL_WITH(cortex_m, maximum, out, tp_bcast_packed, TP_KERNEL_DIM_ORDERS) {
  TP_TRY(tp_s8_binary_prepare(call, MAX_OTHER, MAX_OUT, state));
  *run = maximum_run;
  return TP_OK;
}
