/* cortex_m::dequantize_per_tensor.out: int8 -> float32, as quantized_decomposed.dequantize_per_tensor:
 * x = ((float)q - zero_point) * (float)scale, in float32 (exact subtraction, one rounding). */
#include "cortex_m/engines/int8_util.h"

typedef struct dequantize_state {
  float scale, zero_point;
  uint32_t numel;
} dequantize_state;

/* dequantize_per_tensor.out(Tensor input, float scale, int zero_point, int quant_min, int quant_max,
 * ScalarType dtype, *, Tensor(a!) out) -> Tensor(a!) */
enum { DQ_INPUT, DQ_OUT = 6, DQ_NARGS = 8 };

static tp_status dequantize_run(const tp_kernel_call *call) {
  const dequantize_state *st = call->state;
  const int8_t *q = (const int8_t *)call->args[DQ_INPUT]->as.tensor->data;
  float *x = (float *)call->args[DQ_OUT]->as.tensor->data;
  for (uint32_t i = 0; i < st->numel; i++) {
    x[i] = ((float)q[i] - st->zero_point) * st->scale;
  }
  return TP_OK;
}

TP_KERNEL_WITH(cortex_m, dequantize_per_tensor, out, dequantize_state, TP_KERNEL_DIM_ORDERS) {
  tp_tensor *in, *out, *ret;
  double scale;
  int32_t zero_point, lo, hi;
  TP_CHECK_ARGS(call->nargs == DQ_NARGS);
  TP_TRY(tp_arg_s8_tensor(call->args, call->nargs, DQ_INPUT, &in));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, DQ_OUT, &out));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, DQ_OUT + 1, &ret));
  if (out->dtype != TP_DTYPE_FLOAT32) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_TRY(tp_quant_params(call->args, call->nargs, &scale, &zero_point, &lo, &hi));
  TP_CHECK_ARGS(tp_same_shape(in, out));
  TP_TRY(tp_in_out_same_dim_order(call)); /* elementwise: any one memory order */
  state->scale = (float)scale;
  state->zero_point = (float)zero_point;
  state->numel = out->numel;
  *run = dequantize_run;
  return TP_OK;
}
