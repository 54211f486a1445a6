/* cortex_m::quantized_div.out: int8 / int8 -> int8, as the backend's reference computes it in
 * float32: a = (float)(self - self_zero_point), b = (float)(other - other_zero_point),
 * quotient = b != 0 ? a / b : 0, out = round_half_even(quotient * (float)output_scale)
 * + output_zero_point, clamped to int8. output_scale is the effective scale
 * self_scale / (other_scale * output_scale) the AoT pass computes. self and other have one
 * shape (the reference does not broadcast: division is not commutative). */
#include <math.h>

#include "cortex_m/engines/int8_util.h"

typedef struct quantized_div_state {
  uint32_t numel;
  int32_t self_zp, other_zp;
  float out_zp, scale;
} quantized_div_state;

/* quantized_div.out(Tensor self, int self_zero_point, Tensor other, int other_zero_point,
 * int output_zero_point, float output_scale, *, Tensor(a!) out) -> Tensor(a!) */
enum { DIV_SELF, DIV_SELF_ZP, DIV_OTHER, DIV_OTHER_ZP, DIV_OUT_ZP, DIV_SCALE, DIV_OUT };

static tp_status quantized_div_run(const tp_kernel_call *call) {
  const quantized_div_state *st = call->state;
  const int8_t *x = (const int8_t *)call->args[DIV_SELF]->as.tensor->data;
  const int8_t *y = (const int8_t *)call->args[DIV_OTHER]->as.tensor->data;
  int8_t *o = (int8_t *)call->args[DIV_OUT]->as.tensor->data;
  for (uint32_t i = 0; i < st->numel; i++) {
    /* The quotient, 0 where other is its zero point: 0 / 1 there. The operands are chosen as
     * integers and converted unconditionally (GCC 12 puts a conditional int-to-float conversion
     * in an IT block, which the assembler rejects for Armv8.1-M MVE targets). */
    const int32_t den = y[i] - st->other_zp;
    const int32_t nonzero = den != 0;
    const float quotient = (float)((x[i] - st->self_zp) * nonzero) / (float)(den + 1 - nonzero);
    float v = rintf(quotient * st->scale) + st->out_zp;
    v = v < -128.0f ? -128.0f : v; /* |quotient| <= 255: v is finite */
    v = v > 127.0f ? 127.0f : v;
    o[i] = (int8_t)(int32_t)v;
  }
  return TP_OK;
}

TP_KERNEL_WITH(cortex_m, quantized_div, out, quantized_div_state, TP_KERNEL_DIM_ORDERS) {
  tp_tensor *self, *other, *out;
  int32_t out_zp;
  double scale;
  TP_TRY(tp_elementwise_args(call, DIV_OUT, &self, &out));
  TP_TRY(tp_arg_tensor(args, nargs, DIV_OTHER, &other));
  if (self->dtype != TP_DTYPE_INT8 || other->dtype != TP_DTYPE_INT8 || out->dtype != TP_DTYPE_INT8) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_TRY(tp_arg_s8_value(args, nargs, DIV_SELF_ZP, &state->self_zp));
  TP_TRY(tp_arg_s8_value(args, nargs, DIV_OTHER_ZP, &state->other_zp));
  TP_TRY(tp_arg_s8_value(args, nargs, DIV_OUT_ZP, &out_zp));
  TP_TRY(tp_arg_scalar(args, nargs, DIV_SCALE, &scale));
  /* finite in float32 (the reference multiplies float32 values by it); x == x: not NaN */
  TP_CHECK_ARGS(scale == scale && fabs(scale) <= 3.4e38);
  TP_CHECK_ARGS(tp_same_shape(self, other) && tp_same_shape(self, out));
  if (self->channels_last != other->channels_last || self->channels_last != out->channels_last) {
    return TP_ERR_DIM_ORDER; /* elementwise over memory: one order for all three */
  }
  state->numel = out->numel;
  state->out_zp = (float)out_zp;
  state->scale = (float)scale;
  *run = quantized_div_run;
  return TP_OK;
}
