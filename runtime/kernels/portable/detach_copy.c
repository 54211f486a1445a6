/* aten::detach_copy.out: a copy of self into out (same dtype and shape), what the program keeps of
 * an aliasing operator once views are copies; any dtype. A byte copy (tp_copy_run). */
#include "kernel_util.h"

/* detach_copy.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!): args self, out, out. */
enum { DETACH_COPY_SELF, DETACH_COPY_OUT };

TP_KERNEL(aten, detach_copy, out, tp_copy_state) {
  tp_tensor *in, *out;
  TP_TRY(tp_elementwise_args(call, DETACH_COPY_OUT, &in, &out));
  if (in->dtype != out->dtype) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(tp_same_shape(in, out));
  state->nbytes = (uint32_t)out->nbytes;
  state->out = DETACH_COPY_OUT;
  *run = tp_copy_run;
  return TP_OK;
}
