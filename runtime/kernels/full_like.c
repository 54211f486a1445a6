/* aten::full_like.out: out (self's shape, out's own dtype) filled with fill_value cast to out's
 * dtype; self's values and dtype are not used. memory_format: None, contiguous or preserve. */
#include "kernel_util.h"

/* full_like.out(Tensor self, Scalar fill_value, *, MemoryFormat? memory_format=None,
 *               Tensor(a!) out) -> Tensor(a!) */
TP_KERNEL_LEGACY(aten, full_like, out) {
  TP_CHECK_ARGS(nargs == 5);
  tp_tensor *in, *out, *ret;
  int64_t memory_format;
  bool has_memory_format;
  TP_TRY(tp_arg_tensor(args, nargs, 0, &in));
  TP_TRY(tp_arg_optional_int(args, nargs, 2, &memory_format, &has_memory_format));
  TP_TRY(tp_arg_tensor(args, nargs, 3, &out));
  TP_TRY(tp_arg_tensor(args, nargs, 4, &ret));
  /* ExecuTorch serializes torch.contiguous_format as 0 and torch.preserve_format as 1. */
  TP_CHECK_ARGS(!has_memory_format || memory_format == 0 || memory_format == 1);
  const size_t esize = tp_dtype_size(out->dtype);
  uint8_t value[8];
  if (esize == 0 || esize > sizeof value) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_TRY(tp_arg_scalar_as(args, nargs, 1, out->dtype, value));
  TP_CHECK_ARGS(tp_same_shape(in, out));
  tp_fill(out->data, out->numel, value, esize);
  return TP_OK;
}
