/* cortex_m::quantized_activation.out: an int8 activation by table lookup,
 * out[i] = lut[input[i] + 128], with the 256-entry int8 table computed ahead of time
 * (sigmoid, tanh, silu, ... of the input/output quantization). */
#include "cortex_m/engines/int8_util.h"

typedef struct quantized_activation_state {
  uint32_t numel;
} quantized_activation_state;

/* quantized_activation.out(Tensor input, Tensor lut, *, Tensor(a!) out) -> Tensor(a!) */
enum { ACT_INPUT, ACT_LUT, ACT_OUT, ACT_NARGS = 4 };

static tp_status quantized_activation_run(const tp_kernel_call *call) {
  const quantized_activation_state *st = call->state;
  const int8_t *x = (const int8_t *)call->args[ACT_INPUT]->as.tensor->data;
  const int8_t *lut = (const int8_t *)call->args[ACT_LUT]->as.tensor->data + 128;
  int8_t *o = (int8_t *)call->args[ACT_OUT]->as.tensor->data;
  for (uint32_t i = 0; i < st->numel; i++) {
    o[i] = lut[x[i]];
  }
  return TP_OK;
}

TP_KERNEL_WITH(cortex_m, quantized_activation, out, quantized_activation_state, TP_KERNEL_DIM_ORDERS) {
  tp_tensor *in, *lut, *out, *ret;
  TP_CHECK_ARGS(call->nargs == ACT_NARGS);
  TP_TRY(tp_arg_s8_tensor(call->args, call->nargs, ACT_INPUT, &in));
  TP_TRY(tp_arg_s8_tensor(call->args, call->nargs, ACT_LUT, &lut));
  TP_TRY(tp_arg_s8_tensor(call->args, call->nargs, ACT_OUT, &out));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, ACT_OUT + 1, &ret));
  /* lut[indices] indexes the table's first dimension: a 1-D table of 256 entries. */
  TP_CHECK_ARGS(lut->dim == 1 && lut->numel == 256);
  TP_CHECK_ARGS(tp_same_shape(in, out));
  TP_TRY(tp_in_out_same_dim_order(call)); /* elementwise: any one memory order */
  state->numel = out->numel;
  *run = quantized_activation_run;
  return TP_OK;
}
