/* aten::_to_copy.out: a copy of self converted to out's dtype (Tensor.to(dtype) and .clone() in
 * programs exported without dim-order operators). Any pair of float32, int8, uint8, int16, int32,
 * int64 and bool (engines/convert.h). memory_format must be None or contiguous (tinypte tensors are
 * contiguous). */
#include "portable/engines/convert.h"

/* _to_copy.out(Tensor self, *, bool non_blocking=False, MemoryFormat? memory_format=None,
 * Tensor(a!) out) -> Tensor(a!): args self, non_blocking, memory_format, out, out. */
enum { TO_COPY_SELF, TO_COPY_NON_BLOCKING, TO_COPY_FORMAT, TO_COPY_OUT };

/* MemoryFormat numbering of ExecuTorch's program schema: 0 contiguous (the only one accepted). */
enum { MEMORY_FORMAT_CONTIGUOUS = 0 };

TP_KERNEL_WITH(aten, _to_copy, out, tp_convert_state, TP_KERNEL_DYNAMIC_SHAPES) {
  tp_tensor *in, *out;
  int64_t format;
  bool has_format;
  TP_TRY(tp_elementwise_args(call, TO_COPY_OUT, &in, &out));
  TP_TRY(tp_arg_optional_int(call->args, call->nargs, TO_COPY_FORMAT, &format, &has_format));
  TP_CHECK_ARGS(!has_format || format == MEMORY_FORMAT_CONTIGUOUS);
  return tp_convert_prepare(state, in, out, TO_COPY_OUT, run);
}
