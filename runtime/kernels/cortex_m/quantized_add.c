/* cortex_m::quantized_add.out: int8 + int8 -> int8 in CMSIS-NN's fixed point, as the backend's
 * reference (the arithmetic: engines/s8_add.h). self and other broadcast (the reference accepts
 * equal shapes and channel broadcasts); inputs of one shape take the engine's fast loop. */
#include "cortex_m/engines/s8_add.h"
#include "tinypte/two_cores_hand_over.h"

typedef struct quantized_add_state {
  tp_bcast_packed bcast;
  tp_s8_add add;
} quantized_add_state;

/* quantized_add.out(Tensor self, int self_zero_point, int self_multiplier, int self_shift,
 * Tensor other, int other_zero_point, int other_multiplier, int other_shift,
 * int output_zero_point, int output_multiplier, int output_shift, int activation_min,
 * int activation_max, *, Tensor(a!) out) -> Tensor(a!) */
enum { ADD_SELF, ADD_OTHER = 4, ADD_OUT_ZP = 8, ADD_OUT_MULT, ADD_OUT_SHIFT, ADD_MIN, ADD_MAX, ADD_OUT };

static tp_status quantized_add_run(const tp_kernel_call *call) {
  const quantized_add_state *st = call->state;
  const tp_s8_add *a = &st->add;
  TP_S8_BINARY_APPLY(call, &st->bcast, ADD_OTHER, ADD_OUT, tp_s8_add_one(a, x, y));
  return TP_OK;
}

/* Elements [i0, i1) of a same-shape add (ctx: the call). */
static void same_shape_part(const void *ctx, int32_t i0, int32_t i1, void *scratch) {
  (void)scratch;
  const tp_kernel_call *call = ctx;
  const quantized_add_state *st = call->state;
  const int8_t *x = call->args[ADD_SELF]->as.tensor->data, *y = call->args[ADD_OTHER]->as.tensor->data;
  int8_t *out = call->args[ADD_OUT]->as.tensor->data;
  tp_s8_add_same_shape(&st->add, x + i0, y + i0, out + i0, (uint32_t)(i1 - i0));
}

/* Each element costs about as much as this many multiply-adds of a convolution (two
 * requantizations of a term and one of the sum). */
#define ADD_ELEMENT_WORK 6u

/* Inputs of one shape (one merged dimension, neither repeating): the engine's loop, the elements
 * split over two cores when a worker is installed (tinypte/two_cores_hand_over.h; 16-element vectors whole). */
static tp_status quantized_add_same_shape_run(const tp_kernel_call *call) {
  const quantized_add_state *st = call->state;
  const uint32_t n = st->bcast.sizes[0];
  return tp_two_cores_run(same_shape_part, call, (int32_t)n, 16, (uint64_t)n * ADD_ELEMENT_WORK, 0, NULL);
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
  tp_s8_add *a = &state->add;
  TP_TRY(add_qparams(call->args, call->nargs, ADD_SELF + 1, &a->zp[0], &a->mult[0], &a->shift[0]));
  TP_TRY(add_qparams(call->args, call->nargs, ADD_OTHER + 1, &a->zp[1], &a->mult[1], &a->shift[1]));
  TP_TRY(add_qparams(call->args, call->nargs, ADD_OUT_ZP, &a->out_zp, &a->out_mult, &a->out_shift));
  TP_TRY(tp_arg_s8_range(call->args, call->nargs, ADD_MIN, ADD_MAX, &a->lo, &a->hi));
  const bool same_shape = state->bcast.dim == 1 && state->bcast.repeats[0] == 0 && state->bcast.repeats[1] == 0;
  *run = same_shape ? quantized_add_same_shape_run : quantized_add_run;
  return TP_OK;
}
