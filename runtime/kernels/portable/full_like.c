/* aten::full_like.out: out (self's shape, out's own dtype) filled with fill_value cast to out's
 * dtype; self's values and dtype are not used. memory_format: None, contiguous or preserve.
 * prepare checks and converts the value once; run fills. */
#include "kernel_util.h"

typedef struct full_like_state {
  uint8_t value[8]; /* fill_value as one out element */
  uint32_t numel;   /* out elements */
  uint32_t esize;   /* bytes per element */
} full_like_state;

/* full_like.out(Tensor self, Scalar fill_value, *, MemoryFormat? memory_format=None,
 *               Tensor(a!) out) -> Tensor(a!): args self, fill_value, memory_format, out, out. */
enum { FULL_LIKE_SELF, FULL_LIKE_VALUE, FULL_LIKE_MEMORY_FORMAT, FULL_LIKE_OUT, FULL_LIKE_NARGS = 5 };

static tp_status full_like_run(const tp_kernel_call *call) {
  const full_like_state *st = call->state;
  tp_fill(call->args[FULL_LIKE_OUT]->as.tensor->data, st->numel, st->value, st->esize);
  return TP_OK;
}

TP_KERNEL(aten, full_like, out, full_like_state) {
  TP_CHECK_ARGS(nargs == FULL_LIKE_NARGS);
  tp_tensor *in, *out, *ret;
  int64_t memory_format;
  bool has_memory_format;
  TP_TRY(tp_arg_tensor(args, nargs, FULL_LIKE_SELF, &in));
  TP_TRY(tp_arg_optional_int(args, nargs, FULL_LIKE_MEMORY_FORMAT, &memory_format, &has_memory_format));
  TP_TRY(tp_arg_tensor(args, nargs, FULL_LIKE_OUT, &out));
  TP_TRY(tp_arg_tensor(args, nargs, FULL_LIKE_OUT + 1, &ret));
  /* ExecuTorch serializes torch.contiguous_format as 0 and torch.preserve_format as 1. */
  TP_CHECK_ARGS(!has_memory_format || memory_format == 0 || memory_format == 1);
  const size_t esize = tp_dtype_size(out->dtype);
  if (esize == 0 || esize > sizeof state->value) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_TRY(tp_arg_scalar_as(args, nargs, FULL_LIKE_VALUE, out->dtype, state->value));
  TP_CHECK_ARGS(tp_same_shape(in, out));
  state->numel = out->numel;
  state->esize = (uint32_t)esize;
  *run = full_like_run;
  return TP_OK;
}
