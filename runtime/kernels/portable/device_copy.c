/* et_copy::_h2d_copy.out and et_copy::_d2h_copy.out: ExecuTorch's host-to-device and device-to-host
 * copies. A microcontroller has one memory, so both are byte copies of self into out (same dtype
 * and shape). */
#include "kernel_util.h"

static tp_status device_copy_prepare(const tp_kernel_call *call, tp_copy_state *state, tp_kernel_run_fn *run) {
  tp_tensor *in, *out;
  TP_TRY(tp_elementwise_args(call, 1, &in, &out));
  if (in->dtype != out->dtype) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(tp_same_shape(in, out));
  state->nbytes = (uint32_t)out->nbytes;
  state->out = 1;
  *run = tp_copy_run;
  return TP_OK;
}

/* _h2d_copy.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!): args self, out, out. */
TP_KERNEL(et_copy, _h2d_copy, out, tp_copy_state) { return device_copy_prepare(call, state, run); }

/* _d2h_copy.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!): args self, out, out. */
TP_KERNEL(et_copy, _d2h_copy, out, tp_copy_state) { return device_copy_prepare(call, state, run); }
