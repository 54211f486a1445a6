/* aten::full.out: out (of shape `size`) filled with fill_value cast to out's dtype (any dtype
 * with a C type: float32/64, int8..int64, uint8, bool; integers need a value that fits). */
#include "kernel_util.h"

/* full.out(SymInt[] size, Scalar fill_value, *, Tensor(a!) out) -> Tensor(a!) */
TP_KERNEL_LEGACY(aten, full, out) {
  TP_CHECK_ARGS(nargs == 4);
  tp_tensor *out, *ret;
  const int64_t *size;
  uint32_t len;
  TP_TRY(tp_arg_int_list(args, nargs, 0, &size, &len));
  TP_TRY(tp_arg_tensor(args, nargs, 2, &out));
  TP_TRY(tp_arg_tensor(args, nargs, 3, &ret));
  const size_t esize = tp_dtype_size(out->dtype);
  uint8_t value[8];
  if (esize == 0 || esize > sizeof value) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_TRY(tp_arg_scalar_as(args, nargs, 1, out->dtype, value));
  TP_CHECK_ARGS(len <= TP_MAX_DIM);
  int32_t sizes[TP_MAX_DIM];
  for (uint32_t d = 0; d < len; d++) {
    TP_CHECK_ARGS(size[d] >= 0 && size[d] <= INT32_MAX);
    sizes[d] = (int32_t)size[d];
  }
  TP_CHECK_ARGS(tp_shape_is(out, len, sizes));
  tp_fill(out->data, out->numel, value, esize);
  return TP_OK;
}
