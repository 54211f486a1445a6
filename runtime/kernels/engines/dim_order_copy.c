/* Copies between dim orders (see dim_order_copy.h). */
#include "engines/dim_order_copy.h"

/* The dims of `t` in its memory order, outermost first: 0..n-1, or N, the spatial dims, C. */
static void memory_order(const tp_tensor *t, uint32_t order[TP_MAX_DIM]) {
  for (uint32_t i = 0; i < t->dim; i++) {
    order[i] = !t->channels_last ? i : i == 0 ? 0u : i == t->dim - 1u ? 1u : i + 1u;
  }
}

tp_status tp_dim_order_copy_prepare(tp_dim_order_copy_state *state, const tp_kernel_call *call, uint32_t order_slot,
                                    uint32_t out_slot, tp_kernel_run_fn *run) {
  tp_tensor *in, *out, *ret;
  const int64_t *order;
  uint32_t n;
  /* Not tp_elementwise_args: self and out may differ in dim order here. */
  TP_CHECK_ARGS(call->nargs == out_slot + 2);
  TP_TRY(tp_arg_tensor(call->args, call->nargs, 0, &in));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, out_slot, &out));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, out_slot + 1, &ret));
  TP_TRY(tp_arg_optional_int_list(call->args, call->nargs, order_slot, &order, &n));
  if (order != NULL) {
    uint32_t seen = 0;
    TP_CHECK_ARGS(n == out->dim);
    for (uint32_t d = 0; d < n; d++) {
      TP_CHECK_ARGS(order[d] >= 0 && order[d] < (int64_t)n && (seen & (1u << order[d])) == 0);
      seen |= 1u << order[d];
    }
  }
  const bool same_order = in->channels_last == out->channels_last || tp_tensor_order_free(in) ||
                          tp_tensor_order_free(out);
  if (same_order) {
    return tp_convert_prepare(&state->convert, in, out, out_slot, run);
  }
  if (in->dtype != out->dtype) {
    return TP_ERR_DIM_ORDER;
  }
  TP_CHECK_ARGS(tp_same_shape(in, out) && !in->dynamic && !out->dynamic);
  /* Walk out's memory order; read self through its own strides. */
  int32_t strides[TP_MAX_DIM];
  uint32_t walk[TP_MAX_DIM];
  int32_t sizes[TP_MAX_DIM];
  uint32_t src_strides[TP_MAX_DIM];
  tp_tensor_strides(in, strides);
  memory_order(out, walk);
  for (uint32_t i = 0; i < out->dim; i++) {
    sizes[i] = out->sizes[walk[i]];
    src_strides[i] = (uint32_t)strides[walk[i]];
  }
  tp_gather_plan(&state->gather, out->dim, sizes, src_strides, tp_dtype_size(in->dtype), out_slot, run);
  return TP_OK;
}
