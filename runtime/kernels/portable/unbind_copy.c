/* aten::unbind_copy.int_out: self cut along `dim` into its slices, that dimension removed, one per
 * out tensor; any dtype (engines/split.h). */
#include "portable/engines/split.h"

/* unbind_copy.int_out(Tensor self, int dim=0, *, Tensor(a!)[] out) -> (): args self, dim, out, out (the
 * out list again, as the program lists it). */
enum { UNBIND_SELF, UNBIND_DIM, UNBIND_OUT, UNBIND_NARGS = 4 };

TP_KERNEL(aten, unbind_copy, int_out, tp_split_state) {
  tp_tensor *in;
  tp_tensor *const *outs;
  uint32_t n, dim;
  int64_t dim_arg;
  TP_CHECK_ARGS(call->nargs == UNBIND_NARGS);
  TP_TRY(tp_arg_tensor(call->args, call->nargs, UNBIND_SELF, &in));
  TP_TRY(tp_arg_int(call->args, call->nargs, UNBIND_DIM, &dim_arg));
  TP_TRY(tp_arg_tensor_list(call->args, call->nargs, UNBIND_OUT, &outs, &n));
  TP_CHECK_ARGS(in->dim > 0);
  TP_TRY(tp_normalize_dim(dim_arg, in->dim, &dim));
  TP_CHECK_ARGS(n == (uint32_t)in->sizes[dim]);
  TP_TRY(tp_split_plan(state, in, dim, outs, n, true, UNBIND_OUT));
  *run = tp_split_run;
  return TP_OK;
}
