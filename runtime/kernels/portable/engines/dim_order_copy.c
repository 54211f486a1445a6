/* Copies between dim orders (see dim_order_copy.h). */
#include "portable/engines/dim_order_copy.h"

#include <string.h>

/* The dims of `t` in its memory order, outermost first: 0..n-1, or N, the spatial dims, C. */
static void memory_order(const tp_tensor *t, uint32_t order[TP_MAX_DIM]) {
  for (uint32_t i = 0; i < t->dim; i++) {
    order[i] = !t->channels_last ? i : i == 0 ? 0u : i == t->dim - 1u ? 1u : i + 1u;
  }
}

static tp_status same_dtype_copy_run(const tp_kernel_call *call) {
  const tp_convert_state *st = call->state;
  const tp_tensor *in = call->args[0]->as.tensor;
  tp_tensor *out = call->args[st->out]->as.tensor;
  if (in->nbytes != 0 && in->data != out->data) {
    memmove(out->data, in->data, in->nbytes);
  }
  return TP_OK;
}

tp_status tp_dim_order_same_dtype_copy(tp_dim_order_copy_state *state, const tp_tensor *in, tp_tensor *out,
                                       uint32_t out_slot, tp_kernel_run_fn *run) {
  if (in->dtype != out->dtype) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_TRY(tp_out_shape(out, in->dim, in->sizes));
  state->convert.numel = out->numel;
  state->convert.from = state->convert.to = (uint8_t)in->dtype;
  state->convert.out = (uint8_t)out_slot;
  *run = same_dtype_copy_run;
  return TP_OK;
}

tp_status tp_dim_order_copy_prepare(tp_dim_order_copy_state *state, const tp_kernel_call *call, uint32_t order_slot,
                                    uint32_t out_slot, tp_dim_order_same_order_fn same_order, tp_kernel_run_fn *run) {
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
  const bool one_order = in->channels_last == out->channels_last || tp_tensor_order_free(in) ||
                         tp_tensor_order_free(out);
  if (one_order) {
    return same_order(state, in, out, out_slot, run);
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
