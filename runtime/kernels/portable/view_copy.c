/* aten::view_copy.out: self's elements (any dtype) in out, reshaped to `size`; one size may be -1
 * and is inferred from the element count, as torch.Tensor.view. prepare checks the shapes and
 * sizes the copy; run is tp_copy_run. */
#include "kernel_util.h"

/* view_copy.out(Tensor self, SymInt[] size, *, Tensor(a!) out) -> Tensor(a!):
 * args self, size, out, out. */
enum { VIEW_SELF, VIEW_SIZE, VIEW_OUT, VIEW_NARGS = 4 };

TP_KERNEL(aten, view_copy, out, tp_copy_state) {
  TP_CHECK_ARGS(nargs == VIEW_NARGS);
  tp_tensor *in, *out, *ret;
  const int64_t *size;
  uint32_t len;
  TP_TRY(tp_arg_tensor(args, nargs, VIEW_SELF, &in));
  TP_TRY(tp_arg_int_list(args, nargs, VIEW_SIZE, &size, &len));
  TP_TRY(tp_arg_tensor(args, nargs, VIEW_OUT, &out));
  TP_TRY(tp_arg_tensor(args, nargs, VIEW_OUT + 1, &ret));
  const size_t esize = tp_dtype_size(in->dtype);
  if (in->dtype != out->dtype || esize == 0) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(len <= TP_MAX_DIM);
  int32_t sizes[TP_MAX_DIM];
  int64_t known = 1; /* product of the given sizes */
  int32_t infer = -1; /* index of the -1 entry */
  for (uint32_t d = 0; d < len; d++) {
    if (size[d] == -1) {
      TP_CHECK_ARGS(infer < 0); /* "only one dimension can be inferred" */
      infer = (int32_t)d;
      continue;
    }
    TP_CHECK_ARGS(size[d] >= 0 && size[d] <= INT32_MAX);
    sizes[d] = (int32_t)size[d];
    known *= size[d];
    TP_CHECK_ARGS(known <= UINT32_MAX);
  }
  if (infer >= 0) {
    /* With zero known elements the -1 is ambiguous (ATen rejects it too). */
    TP_CHECK_ARGS(known > 0 && (int64_t)in->numel % known == 0);
    sizes[infer] = (int32_t)((int64_t)in->numel / known);
  } else {
    TP_CHECK_ARGS(known == (int64_t)in->numel);
  }
  TP_CHECK_ARGS(tp_shape_is(out, len, sizes));
  state->nbytes = out->numel * (uint32_t)esize;
  state->out = VIEW_OUT;
  *run = tp_copy_run;
  return TP_OK;
}
