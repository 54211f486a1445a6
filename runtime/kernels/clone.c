/* aten::clone.out: a byte copy of self into out (same shape and dtype, any dtype). Tensors are
 * always contiguous here, so memory_format may only be None, contiguous_format or preserve_format. */
#include <string.h>

#include "kernel_util.h"

/* clone.out(Tensor self, *, MemoryFormat? memory_format=None, Tensor(a!) out) -> Tensor(a!) */
TP_KERNEL_LEGACY(aten, clone, out) {
  TP_CHECK_ARGS(nargs == 4);
  tp_tensor *in, *out, *ret;
  int64_t memory_format;
  bool has_memory_format;
  TP_TRY(tp_arg_tensor(args, nargs, 0, &in));
  TP_TRY(tp_arg_optional_int(args, nargs, 1, &memory_format, &has_memory_format));
  TP_TRY(tp_arg_tensor(args, nargs, 2, &out));
  TP_TRY(tp_arg_tensor(args, nargs, 3, &ret));
  /* ExecuTorch serializes torch.contiguous_format as 0 and torch.preserve_format as 1. */
  TP_CHECK_ARGS(!has_memory_format || memory_format == 0 || memory_format == 1);
  const size_t esize = tp_dtype_size(in->dtype);
  if (in->dtype != out->dtype || esize == 0) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(tp_same_shape(in, out));
  if (out->numel > 0 && out->data != in->data) {
    memmove(out->data, in->data, (size_t)out->numel * esize);
  }
  return TP_OK;
}
