/* dim_order_ops::_clone_dim_order.out and _to_dim_order_copy.out: what ExecuTorch 1.x emits
 * for clone() and .to(). tinypte tensors are contiguous, so dim_order must be None or
 * 0..n-1, and the copy is byte for byte (same dtype; _to_dim_order_copy also converts
 * nothing else here: a dtype change is rejected). */
#include <string.h>

#include "kernel_util.h"

/* (Tensor self, *, bool non_blocking=False, int[]? dim_order=None, Tensor(a!) out) -> Tensor(a!) */
static tp_status contiguous_copy(tp_value *const *args, uint32_t nargs) {
  TP_CHECK_ARGS(nargs == 5);
  tp_tensor *in;
  tp_tensor *out;
  bool non_blocking;
  const int64_t *dim_order;
  uint32_t dims;
  TP_TRY(tp_arg_tensor(args, nargs, 0, &in));
  TP_TRY(tp_arg_bool(args, nargs, 1, &non_blocking));
  TP_TRY(tp_arg_optional_int_list(args, nargs, 2, &dim_order, &dims));
  TP_TRY(tp_arg_tensor(args, nargs, 3, &out));
  if (dim_order != NULL) {
    TP_CHECK_ARGS(dims == out->dim);
    for (uint32_t d = 0; d < dims; d++) {
      TP_CHECK_ARGS(dim_order[d] == (int64_t)d);
    }
  }
  size_t element = tp_dtype_size(in->dtype);
  if (in->dtype != out->dtype || element == 0) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(tp_same_shape(in, out));
  if (out->numel > 0 && out->data != in->data) {
    memmove(out->data, in->data, (size_t)out->numel * element);
  }
  return TP_OK;
}

TP_KERNEL_LEGACY(dim_order_ops, _clone_dim_order, out) { return contiguous_copy(args, nargs); }

TP_KERNEL_LEGACY(dim_order_ops, _to_dim_order_copy, out) { return contiguous_copy(args, nargs); }
