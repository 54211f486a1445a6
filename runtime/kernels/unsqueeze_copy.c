/* aten::unsqueeze_copy.out: self's elements (any dtype) with a size-1 dimension inserted at dim,
 * which may be in [-(self.dim + 1), self.dim]. */
#include <string.h>

#include "kernel_util.h"

/* unsqueeze_copy.out(Tensor self, int dim, *, Tensor(a!) out) -> Tensor(a!) */
TP_KERNEL_LEGACY(aten, unsqueeze_copy, out) {
  TP_CHECK_ARGS(nargs == 4);
  tp_tensor *in, *out, *ret;
  int64_t dim_arg;
  TP_TRY(tp_arg_tensor(args, nargs, 0, &in));
  TP_TRY(tp_arg_int(args, nargs, 1, &dim_arg));
  TP_TRY(tp_arg_tensor(args, nargs, 2, &out));
  TP_TRY(tp_arg_tensor(args, nargs, 3, &ret));
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
  if (out->numel > 0 && out->data != in->data) {
    memmove(out->data, in->data, (size_t)out->numel * esize);
  }
  return TP_OK;
}
