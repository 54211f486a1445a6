/* aten::split_with_sizes_copy.out: self cut along `dim` into pieces of the listed sizes, one per
 * out tensor; any dtype (engines/split.h). */
#include "portable/engines/split.h"

/* split_with_sizes_copy.out(Tensor self, SymInt[] split_sizes, int dim=0, *, Tensor(a!)[] out) -> ():
 * args self, split_sizes, dim, out, out (the out list again, as the program lists it). */
enum { SPLIT_SIZES_SELF, SPLIT_SIZES_SIZES, SPLIT_SIZES_DIM, SPLIT_SIZES_OUT, SPLIT_SIZES_NARGS = 5 };

TP_KERNEL(aten, split_with_sizes_copy, out, tp_split_state) {
  tp_tensor *in;
  tp_tensor *const *outs;
  const int64_t *sizes;
  uint32_t n, nsizes, dim;
  int64_t dim_arg;
  TP_CHECK_ARGS(call->nargs == SPLIT_SIZES_NARGS);
  TP_TRY(tp_arg_tensor(call->args, call->nargs, SPLIT_SIZES_SELF, &in));
  TP_TRY(tp_arg_int_list(call->args, call->nargs, SPLIT_SIZES_SIZES, &sizes, &nsizes));
  TP_TRY(tp_arg_int(call->args, call->nargs, SPLIT_SIZES_DIM, &dim_arg));
  TP_TRY(tp_arg_tensor_list(call->args, call->nargs, SPLIT_SIZES_OUT, &outs, &n));
  TP_CHECK_ARGS(in->dim > 0 && n == nsizes);
  TP_TRY(tp_normalize_dim(dim_arg, in->dim, &dim));
  for (uint32_t k = 0; k < n; k++) {
    TP_CHECK_ARGS(outs[k]->dim == in->dim && outs[k]->sizes[dim] == sizes[k]);
  }
  TP_TRY(tp_split_plan(state, in, dim, outs, n, false, SPLIT_SIZES_OUT));
  *run = tp_split_run;
  return TP_OK;
}
