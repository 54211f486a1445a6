/* cortex_m::quantized_add.out: int8 + int8 -> int8 in CMSIS-NN's fixed point, as the backend's
 * reference: each input's (q - zero_point) << 20 is requantized by its multiplier and shift,
 * the two sums added (int32, wrapping), requantized by the output multiplier and shift, offset
 * by the output zero point (int32, wrapping) and clamped to [activation_min, activation_max].
 * self and other broadcast (the reference accepts equal shapes and channel broadcasts). */
#include "cortex_m/engines/int8_util.h"

typedef struct quantized_add_state {
  tp_bcast_packed bcast;
  int32_t zp[2], mult[2], shift[2]; /* self, other */
  int32_t out_zp, out_mult, out_shift;
  int32_t lo, hi;
} quantized_add_state;

/* quantized_add.out(Tensor self, int self_zero_point, int self_multiplier, int self_shift,
 * Tensor other, int other_zero_point, int other_multiplier, int other_shift,
 * int output_zero_point, int output_multiplier, int output_shift, int activation_min,
 * int activation_max, *, Tensor(a!) out) -> Tensor(a!) */
enum { ADD_SELF, ADD_OTHER = 4, ADD_OUT_ZP = 8, ADD_OUT_MULT, ADD_OUT_SHIFT, ADD_MIN, ADD_MAX, ADD_OUT };

/* One input's term: requantize((q - zero_point) << 20) (the shift cannot overflow: |q - zp| <= 255). */
static inline int32_t add_term(int32_t q, int32_t zp, int32_t mult, int32_t shift) {
  return tp_requantize((int32_t)((uint32_t)(q - zp) << 20), mult, shift);
}

static inline int8_t add_one(const quantized_add_state *st, int32_t x, int32_t y) {
  const uint32_t sum = (uint32_t)add_term(x, st->zp[0], st->mult[0], st->shift[0]) +
                       (uint32_t)add_term(y, st->zp[1], st->mult[1], st->shift[1]);
  const uint32_t r = (uint32_t)tp_requantize((int32_t)sum, st->out_mult, st->out_shift) + (uint32_t)st->out_zp;
  return (int8_t)tp_clamp_i32((int32_t)r, st->lo, st->hi);
}

static tp_status quantized_add_run(const tp_kernel_call *call) {
  const quantized_add_state *st = call->state;
  TP_S8_BINARY_APPLY(call, &st->bcast, ADD_OTHER, ADD_OUT, add_one(st, x, y));
  return TP_OK;
}

/* An input's (or the output's) zero point, multiplier and shift at args[at..at+2]. */
static tp_status add_qparams(tp_value *const *args, uint32_t nargs, uint32_t at, int32_t *zp, int32_t *mult,
                             int32_t *shift) {
  TP_TRY(tp_arg_s8_value(args, nargs, at, zp));
  TP_TRY(tp_arg_i32(args, nargs, at + 1, mult));
  TP_TRY(tp_arg_i32(args, nargs, at + 2, shift));
  TP_CHECK_ARGS(tp_shift_ok(*shift));
  return TP_OK;
}

TP_KERNEL_WITH(cortex_m, quantized_add, out, quantized_add_state, TP_KERNEL_DIM_ORDERS) {
  TP_TRY(tp_s8_binary_prepare(call, ADD_OTHER, ADD_OUT, &state->bcast));
  TP_TRY(add_qparams(call->args, call->nargs, ADD_SELF + 1, &state->zp[0], &state->mult[0], &state->shift[0]));
  TP_TRY(add_qparams(call->args, call->nargs, ADD_OTHER + 1, &state->zp[1], &state->mult[1], &state->shift[1]));
  TP_TRY(add_qparams(call->args, call->nargs, ADD_OUT_ZP, &state->out_zp, &state->out_mult, &state->out_shift));
  TP_TRY(tp_arg_s8_range(call->args, call->nargs, ADD_MIN, ADD_MAX, &state->lo, &state->hi));
  *run = quantized_add_run;
  return TP_OK;
}
