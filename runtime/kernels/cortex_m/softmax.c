/* cortex_m::softmax.out: int8 softmax along `dim`, as the backend's reference computes it in
 * float32: x = (float)(q - input_zero_point) * input_scale with
 * input_scale = (float)(input_multiplier * 2^input_shift / 2^31 / 2^26) (the input's 5 integer
 * bits); p = expf(x - max) / sum of expf(x - max) (summed in order along dim); out =
 * round_half_even(p * 256) - 128, clamped to int8 (the output is fixed at scale 1/256, zero
 * point -128). diff_min is not used. A row of up to ROW_CACHE elements keeps its exponentials
 * on the stack between the sum and the quotients; a longer row computes them twice (the op
 * has no scratch tensor): the same values either way. */
#include <math.h>

#include "cortex_m/engines/int8_util.h"

/* A call's rows, derived from its arguments each run (softmax_derive). */
typedef struct softmax_state {
  uint32_t outer, len, inner; /* rows of `len` elements `inner` apart */
  int32_t zero_point;
  float scale;
} softmax_state;

/* What a call keeps in the state pool: the input scale (computed once in double) and the
 * normalized dim; the rest follows from the arguments. */
typedef struct softmax_call {
  float scale;
  uint8_t dim;
} softmax_call;

/* softmax.out(Tensor input, int dim, int input_zero_point, int output_zero_point,
 * int input_multiplier, int input_shift, int diff_min, *, Tensor(a!) out) -> Tensor(a!) */
enum { SM_INPUT, SM_DIM, SM_IN_ZP, SM_OUT_ZP, SM_MULT, SM_SHIFT, SM_DIFF_MIN, SM_OUT, SM_NARGS = 9 };

/* The output quantization the reference requires (CMSIS-NN's softmax output). */
enum { SM_OUTPUT_ZERO_POINT = -128, SM_INPUT_INTEGER_BITS = 5 };

enum { ROW_CACHE = 32 }; /* floats: 128 bytes of stack */

static void softmax_row(const softmax_state *st, const int8_t *q, int8_t *o) {
  const uint32_t len = st->len, step = st->inner;
  int32_t qmax = -128;
  for (uint32_t i = 0; i < len; i++) {
    qmax = q[i * step] > qmax ? q[i * step] : qmax;
  }
  /* x is monotone in q (scale > 0): the largest x is that of the largest q. */
  const float xmax = (float)(qmax - st->zero_point) * st->scale;
  float cache[ROW_CACHE];
  float sum = 0.0f;
  for (uint32_t i = 0; i < len; i++) {
    const float e = expf((float)(q[i * step] - st->zero_point) * st->scale - xmax);
    cache[i < ROW_CACHE ? i : 0] = e;
    sum += e;
  }
  for (uint32_t i = 0; i < len; i++) {
    const float e = len <= ROW_CACHE ? cache[i] : expf((float)(q[i * step] - st->zero_point) * st->scale - xmax);
    const float p = e / sum;
    const float v = rintf(p * 256.0f) + (float)SM_OUTPUT_ZERO_POINT; /* p <= 1: at most 128 */
    o[i * step] = (int8_t)(int32_t)(v > 127.0f ? 127.0f : v);
  }
}

static void softmax_derive(const tp_kernel_call *call, softmax_state *st) {
  const softmax_call *kept = call->state;
  const tp_tensor *in = call->args[SM_INPUT]->as.tensor;
  st->outer = 1;
  st->inner = 1;
  for (uint32_t k = 0; k < in->dim; k++) {
    if (k < kept->dim) {
      st->outer *= (uint32_t)in->sizes[k];
    } else if (k > kept->dim) {
      st->inner *= (uint32_t)in->sizes[k];
    }
  }
  st->len = (uint32_t)tp_size(in, kept->dim);
  st->zero_point = (int32_t)call->args[SM_IN_ZP]->as.i;
  st->scale = kept->scale;
}

static tp_status softmax_run(const tp_kernel_call *call) {
  softmax_state derived;
  softmax_derive(call, &derived);
  const softmax_state *st = &derived;
  const int8_t *x = (const int8_t *)call->args[SM_INPUT]->as.tensor->data;
  int8_t *o = (int8_t *)call->args[SM_OUT]->as.tensor->data;
  const uint32_t block = st->len * st->inner;
  for (uint32_t r = 0; r < st->outer; r++) {
    for (uint32_t j = 0; j < st->inner; j++) {
      softmax_row(st, x + r * block + j, o + r * block + j);
    }
  }
  return TP_OK;
}

TP_KERNEL(cortex_m, softmax, out, softmax_call) {
  tp_tensor *in, *out, *ret;
  int64_t dim, diff_min;
  int32_t in_zp, out_zp, mult, shift;
  TP_CHECK_ARGS(nargs == SM_NARGS);
  TP_TRY(tp_arg_s8_tensor(args, nargs, SM_INPUT, &in));
  TP_TRY(tp_arg_s8_tensor(args, nargs, SM_OUT, &out));
  TP_TRY(tp_arg_tensor(args, nargs, SM_OUT + 1, &ret));
  TP_TRY(tp_arg_int(args, nargs, SM_DIM, &dim));
  TP_TRY(tp_arg_s8_value(args, nargs, SM_IN_ZP, &in_zp));
  TP_TRY(tp_arg_i32(args, nargs, SM_OUT_ZP, &out_zp));
  TP_TRY(tp_arg_i32(args, nargs, SM_MULT, &mult));
  TP_TRY(tp_arg_i32(args, nargs, SM_SHIFT, &shift));
  TP_TRY(tp_arg_int(args, nargs, SM_DIFF_MIN, &diff_min));
  /* The reference rejects another output zero point and a non-positive input scale. */
  /* The backend's shifts stay within -31..31 (its multiplier is capped below 2^31). */
  TP_CHECK_ARGS(out_zp == SM_OUTPUT_ZERO_POINT && mult > 0 && shift >= -31 && shift <= 31);
  TP_CHECK_ARGS(tp_same_shape(in, out));
  uint32_t d;
  TP_TRY(tp_normalize_dim(dim, in->dim, &d));
  state->dim = (uint8_t)d;
  /* multiplier / 2^31 * 2^shift / 2^(31 - 5), exact in double (as the reference's ldexp), then
   * rounded to float32 as torch multiplies a float32 tensor by it. */
  state->scale = (float)ldexp((double)mult, shift - 31 - (31 - SM_INPUT_INTEGER_BITS));
  *run = softmax_run;
  return TP_OK;
}
