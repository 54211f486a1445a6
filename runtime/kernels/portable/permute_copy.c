/* aten::permute_copy.out: out[i0, i1, ...] = self[...] with out dimension k taken from self
 * dimension dims[k] (a permutation, negative dims allowed); any dtype. prepare plans the gather
 * (tp_gather_plan: merged dimensions, strides); run is the routine it picks. */
#include "kernel_util.h"

/* permute_copy.out(Tensor self, int[] dims, *, Tensor(a!) out) -> Tensor(a!): args self, dims, out, out. */
enum { PERMUTE_SELF, PERMUTE_DIMS, PERMUTE_OUT, PERMUTE_NARGS = 4 };

TP_KERNEL(aten, permute_copy, out, tp_gather_state) {
  TP_CHECK_ARGS(nargs == PERMUTE_NARGS);
  tp_tensor *in, *out, *ret;
  const int64_t *dims;
  uint32_t len;
  TP_TRY(tp_arg_tensor(args, nargs, PERMUTE_SELF, &in));
  TP_TRY(tp_arg_int_list(args, nargs, PERMUTE_DIMS, &dims, &len));
  TP_TRY(tp_arg_tensor(args, nargs, PERMUTE_OUT, &out));
  TP_TRY(tp_arg_tensor(args, nargs, PERMUTE_OUT + 1, &ret));
  const size_t esize = tp_dtype_size(in->dtype);
  if (in->dtype != out->dtype || esize == 0) {
    return TP_ERR_KERNEL_DTYPE;
  }
  int32_t sizes[TP_MAX_DIM];
  uint32_t strides[TP_MAX_DIM];
  TP_TRY(tp_permutation(in, dims, len, sizes, strides));
  TP_CHECK_ARGS(tp_shape_is(out, len, sizes));
  tp_gather_plan(state, len, sizes, strides, esize, PERMUTE_OUT, run);
  return TP_OK;
}
