/* aten::expand_copy.out: self broadcast to `size` (ATen expand: sizes align at the last dim, -1
 * keeps self's size, only size-1 dims grow, new leading dims must be >= 0); any dtype. prepare
 * plans the gather (tp_gather_plan: merged dimensions, strides 0 where broadcast); run is the
 * routine it picks. */
#include "kernel_util.h"

/* expand_copy.out(Tensor self, SymInt[] size, *, bool implicit=False, Tensor(a!) out) -> Tensor(a!):
 * args self, size, implicit, out, out. */
enum { EXPAND_SELF, EXPAND_SIZE, EXPAND_IMPLICIT, EXPAND_OUT, EXPAND_NARGS = 5 };

TP_KERNEL(aten, expand_copy, out, tp_gather_state) {
  TP_CHECK_ARGS(nargs == EXPAND_NARGS);
  tp_tensor *in, *out, *ret;
  const int64_t *size;
  uint32_t len;
  bool implicit;
  TP_TRY(tp_arg_tensor(args, nargs, EXPAND_SELF, &in));
  TP_TRY(tp_arg_int_list(args, nargs, EXPAND_SIZE, &size, &len));
  TP_TRY(tp_arg_bool(args, nargs, EXPAND_IMPLICIT, &implicit));
  TP_TRY(tp_arg_tensor(args, nargs, EXPAND_OUT, &out));
  TP_TRY(tp_arg_tensor(args, nargs, EXPAND_OUT + 1, &ret));
  (void)implicit; /* only affects autograd tracing */
  const size_t esize = tp_dtype_size(in->dtype);
  if (in->dtype != out->dtype || esize == 0) {
    return TP_ERR_KERNEL_DTYPE;
  }
  /* "the number of sizes provided must be greater or equal to the number of dimensions" */
  TP_CHECK_ARGS(len >= in->dim && len <= TP_MAX_DIM);
  const uint32_t lead = len - in->dim;
  int32_t sizes[TP_MAX_DIM];
  uint32_t strides[TP_MAX_DIM];
  uint32_t stride = 1;
  for (uint32_t k = len; k-- > 0;) {
    const int64_t target = size[k];
    if (k < lead) {
      TP_CHECK_ARGS(target >= 0 && target <= INT32_MAX); /* no -1 in a new leading dim */
      sizes[k] = (int32_t)target;
      strides[k] = 0;
      continue;
    }
    const int32_t have = in->sizes[k - lead];
    if (target == -1 || target == have) {
      sizes[k] = have;
      strides[k] = stride;
    } else {
      TP_CHECK_ARGS(have == 1 && target >= 0 && target <= INT32_MAX);
      sizes[k] = (int32_t)target;
      strides[k] = 0;
    }
    stride *= (uint32_t)have;
  }
  TP_CHECK_ARGS(tp_shape_is(out, len, sizes));
  tp_gather_plan(state, len, sizes, strides, esize, EXPAND_OUT, run);
  return TP_OK;
}
