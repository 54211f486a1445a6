/* dim_order_ops::_clone_dim_order.out: what ExecuTorch 1.x emits for clone(). tinypte tensors
 * are contiguous, so dim_order must be None or 0..n-1, and the copy is byte for byte (same
 * dtype; _to_dim_order_copy.c converts dtypes). prepare checks and sizes the copy; run is
 * tp_copy_run. */
#include "kernel_util.h"

/* (Tensor self, *, bool non_blocking=False, int[]? dim_order=None, Tensor(a!) out) -> Tensor(a!):
 * args self, non_blocking, dim_order, out, out. */
enum { COPY_SELF, COPY_NON_BLOCKING, COPY_DIM_ORDER, COPY_OUT, COPY_NARGS = 5 };

static tp_status contiguous_copy_prepare(const tp_kernel_call *call, tp_copy_state *state, tp_kernel_run_fn *run) {
  tp_value *const *args = call->args;
  const uint32_t nargs = call->nargs;
  TP_CHECK_ARGS(nargs == COPY_NARGS);
  tp_tensor *in;
  tp_tensor *out;
  bool non_blocking;
  const int64_t *dim_order;
  uint32_t dims;
  TP_TRY(tp_arg_tensor(args, nargs, COPY_SELF, &in));
  TP_TRY(tp_arg_bool(args, nargs, COPY_NON_BLOCKING, &non_blocking));
  TP_TRY(tp_arg_optional_int_list(args, nargs, COPY_DIM_ORDER, &dim_order, &dims));
  TP_TRY(tp_arg_tensor(args, nargs, COPY_OUT, &out));
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
  TP_TRY(tp_out_shape(out, in->dim, in->sizes));
  state->nbytes = out->numel * (uint32_t)element;
  state->out = COPY_OUT;
  *run = tp_copy_run;
  return TP_OK;
}

TP_KERNEL_WITH(dim_order_ops, _clone_dim_order, out, tp_copy_state, TP_KERNEL_DYNAMIC_SHAPES) { return contiguous_copy_prepare(call, state, run); }
