/* aten::flip.out: self with the listed dimensions reversed; any dtype (tp_remap_run). */
#include "portable/engines/remap.h"

/* flip.out(Tensor self, int[] dims, *, Tensor(a!) out) -> Tensor(a!): args self, dims, out, out. */
enum { FLIP_SELF, FLIP_DIMS, FLIP_OUT };

TP_KERNEL(aten, flip, out, tp_remap_state) {
  tp_tensor *in, *out;
  const int64_t *dims;
  uint32_t ndims;
  TP_TRY(tp_elementwise_args(call, FLIP_OUT, &in, &out));
  TP_TRY(tp_arg_int_list(call->args, call->nargs, FLIP_DIMS, &dims, &ndims));
  TP_CHECK_ARGS(tp_same_shape(in, out));
  TP_TRY(tp_remap_init(state, in, out, FLIP_OUT));
  for (uint32_t k = 0; k < ndims; k++) {
    uint32_t d;
    TP_TRY(tp_normalize_dim(dims[k], in->dim, &d));
    TP_CHECK_ARGS(((state->flip >> d) & 1u) == 0); /* each dim once */
    state->flip |= (uint8_t)(1u << d);
  }
  *run = tp_remap_run;
  return TP_OK;
}
