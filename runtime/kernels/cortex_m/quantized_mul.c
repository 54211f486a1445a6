/* cortex_m::quantized_mul.out: int8 * int8 -> int8 in CMSIS-NN's fixed point, as the backend's
 * reference: (self - self_zero_point) * (other - other_zero_point) (int32), requantized by the
 * output multiplier and shift, offset by the output zero point (int32, wrapping) and clamped to
 * int8. Zero points are any int32 (the backend's hardswish decomposition gives one beyond int8),
 * and the differences and the product wrap in int32 as the reference's int32 tensors do. self
 * and other broadcast (the reference accepts equal shapes and channel broadcasts). */
#include "cortex_m/engines/int8_util.h"

typedef struct quantized_mul_state {
  tp_bcast_packed bcast;
  int32_t self_zp, other_zp, out_zp, out_mult, out_shift;
} quantized_mul_state;

/* quantized_mul.out(Tensor self, int self_zero_point, Tensor other, int other_zero_point,
 * int output_zero_point, int output_multiplier, int output_shift, *, Tensor(a!) out) -> Tensor(a!) */
enum { MUL_SELF, MUL_SELF_ZP, MUL_OTHER, MUL_OTHER_ZP, MUL_OUT_ZP, MUL_OUT_MULT, MUL_OUT_SHIFT, MUL_OUT };

static inline int8_t mul_one(const quantized_mul_state *st, int32_t x, int32_t y) {
  const uint32_t product = ((uint32_t)x - (uint32_t)st->self_zp) * ((uint32_t)y - (uint32_t)st->other_zp);
  const uint32_t r = (uint32_t)tp_requantize((int32_t)product, st->out_mult, st->out_shift) + (uint32_t)st->out_zp;
  return (int8_t)tp_clamp_i32((int32_t)r, -128, 127);
}

static tp_status quantized_mul_run(const tp_kernel_call *call) {
  const quantized_mul_state *st = call->state;
  TP_S8_BINARY_APPLY(call, &st->bcast, MUL_OTHER, MUL_OUT, mul_one(st, x, y));
  return TP_OK;
}

TP_KERNEL_WITH(cortex_m, quantized_mul, out, quantized_mul_state, TP_KERNEL_DIM_ORDERS) {
  TP_TRY(tp_s8_binary_prepare(call, MUL_OTHER, MUL_OUT, &state->bcast));
  TP_TRY(tp_arg_i32(args, nargs, MUL_SELF_ZP, &state->self_zp));
  TP_TRY(tp_arg_i32(args, nargs, MUL_OTHER_ZP, &state->other_zp));
  TP_TRY(tp_arg_i32(args, nargs, MUL_OUT_ZP, &state->out_zp));
  TP_TRY(tp_arg_i32(args, nargs, MUL_OUT_MULT, &state->out_mult));
  TP_TRY(tp_arg_i32(args, nargs, MUL_OUT_SHIFT, &state->out_shift));
  TP_CHECK_ARGS(tp_shift_ok(state->out_shift));
  *run = quantized_mul_run;
  return TP_OK;
}
