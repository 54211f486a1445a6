/* aten::unsqueeze_copy.out: self's elements (any dtype) with a size-1 dimension inserted at dim,
 * which may be in [-(self.dim + 1), self.dim]. prepare checks the shapes and sizes the copy; run
 * is tp_copy_run. */
#include "kernel_util.h"

/* unsqueeze_copy.out(Tensor self, int dim, *, Tensor(a!) out) -> Tensor(a!): args self, dim, out, out. */
enum { UNSQUEEZE_SELF, UNSQUEEZE_DIM, UNSQUEEZE_OUT, UNSQUEEZE_NARGS = 4 };

TP_KERNEL(aten, unsqueeze_copy, out, tp_copy_state) {
  TP_CHECK_ARGS(nargs == UNSQUEEZE_NARGS);
  tp_tensor *in, *out, *ret;
  int64_t dim_arg;
  TP_TRY(tp_arg_tensor(args, nargs, UNSQUEEZE_SELF, &in));
  TP_TRY(tp_arg_int(args, nargs, UNSQUEEZE_DIM, &dim_arg));
  TP_TRY(tp_arg_tensor(args, nargs, UNSQUEEZE_OUT, &out));
  TP_TRY(tp_arg_tensor(args, nargs, UNSQUEEZE_OUT + 1, &ret));
  const size_t esize = tp_dtype_size(in->dtype);
  if (in->dtype != out->dtype || esize == 0) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(in->dim < TP_MAX_DIM);
  uint32_t dim;
  TP_TRY(tp_normalize_dim(dim_arg, (uint32_t)in->dim + 1, &dim));
  int32_t sizes[TP_MAX_DIM];
  for (uint32_t d = 0, k = 0; d <= in->dim; d++) {
    sizes[d] = d == dim ? 1 : in->sizes[k++];
  }
  TP_CHECK_ARGS(tp_shape_is(out, (uint32_t)in->dim + 1, sizes));
  state->nbytes = out->numel * (uint32_t)esize;
  state->out = UNSQUEEZE_OUT;
  *run = tp_copy_run;
  return TP_OK;
}
