/* aten::split_copy.Tensor_out: self cut along `dim` into pieces of split_size elements (the last
 * may be shorter), one per out tensor; any dtype (engines/split.h). */
#include "portable/engines/split.h"

/* split_copy.Tensor_out(Tensor self, SymInt split_size, int dim=0, *, Tensor(a!)[] out) -> (): args
 * self, split_size, dim, out, out (the out list again, as the program lists it). */
enum { SPLIT_SELF, SPLIT_SIZE, SPLIT_DIM, SPLIT_OUT, SPLIT_NARGS = 5 };

TP_KERNEL(aten, split_copy, Tensor_out, tp_split_state) {
  tp_tensor *in;
  tp_tensor *const *outs;
  uint32_t n, dim;
  int64_t split_size, dim_arg;
  TP_CHECK_ARGS(call->nargs == SPLIT_NARGS);
  TP_TRY(tp_arg_tensor(call->args, call->nargs, SPLIT_SELF, &in));
  TP_TRY(tp_arg_int(call->args, call->nargs, SPLIT_SIZE, &split_size));
  TP_TRY(tp_arg_int(call->args, call->nargs, SPLIT_DIM, &dim_arg));
  TP_TRY(tp_arg_tensor_list(call->args, call->nargs, SPLIT_OUT, &outs, &n));
  TP_CHECK_ARGS(in->dim > 0 && split_size > 0);
  TP_TRY(tp_normalize_dim(dim_arg, in->dim, &dim));
  const int64_t size = in->sizes[dim];
  TP_CHECK_ARGS(n == (uint32_t)(size == 0 ? 1 : (size + split_size - 1) / split_size));
  for (uint32_t k = 0; k < n; k++) { /* piece k: min(split_size, what is left) */
    const int64_t left = size - (int64_t)k * split_size;
    TP_CHECK_ARGS(outs[k]->dim == in->dim && outs[k]->sizes[dim] == (left < split_size ? left : split_size));
  }
  TP_TRY(tp_split_plan(state, in, dim, outs, n, false, SPLIT_OUT));
  *run = tp_split_run;
  return TP_OK;
}
