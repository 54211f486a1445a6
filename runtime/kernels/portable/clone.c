/* aten::clone.out: a byte copy of self into out (same shape and dtype, any dtype). Tensors are
 * always contiguous here, so memory_format may only be None, contiguous_format or preserve_format.
 * prepare checks and sizes the copy; run is tp_copy_run. */
#include "kernel_util.h"

/* clone.out(Tensor self, *, MemoryFormat? memory_format=None, Tensor(a!) out) -> Tensor(a!):
 * args self, memory_format, out, out. */
enum { CLONE_SELF, CLONE_MEMORY_FORMAT, CLONE_OUT, CLONE_NARGS = 4 };

TP_KERNEL_WITH(aten, clone, out, tp_copy_state, TP_KERNEL_DYNAMIC_SHAPES) {
  TP_CHECK_ARGS(nargs == CLONE_NARGS);
  tp_tensor *in, *out, *ret;
  int64_t memory_format;
  bool has_memory_format;
  TP_TRY(tp_arg_tensor(args, nargs, CLONE_SELF, &in));
  TP_TRY(tp_arg_optional_int(args, nargs, CLONE_MEMORY_FORMAT, &memory_format, &has_memory_format));
  TP_TRY(tp_arg_tensor(args, nargs, CLONE_OUT, &out));
  TP_TRY(tp_arg_tensor(args, nargs, CLONE_OUT + 1, &ret));
  /* ExecuTorch serializes torch.contiguous_format as 0 and torch.preserve_format as 1. */
  TP_CHECK_ARGS(!has_memory_format || memory_format == 0 || memory_format == 1);
  const size_t esize = tp_dtype_size(in->dtype);
  if (in->dtype != out->dtype || esize == 0) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_TRY(tp_out_shape(out, in->dim, in->sizes));
  state->nbytes = out->numel * (uint32_t)esize;
  state->out = CLONE_OUT;
  *run = tp_copy_run;
  return TP_OK;
}
