/* aten::pow: base ** exponent elementwise.
 *  - pow.Tensor_Scalar_out: float32 (powf; an exponent of 2 is x * x, what squared-error losses
 *    use) and int32/int64 with a non-negative integer exponent (exact, by squaring, wrapping
 *    like ATen); every other combination (int8, uint8, int16 or bool self, an integer self with
 *    a float exponent) as pow.Tensor_Tensor_out computes it, with ATen's type promotion.
 *  - pow.Tensor_Tensor_out (broadcasting) and pow.Scalar_out (a Scalar base): ATen's type
 *    promotion; floats use powf, integers pow() in double converted to out's integer dtype,
 *    as ExecuTorch's portable kernel computes them (2 ** -1 is 0). */
#include <math.h>

#include "portable/engines/binary.h"
#include "portable/engines/dtypes.h"
#include "kernel_util.h"

typedef union pow_state {
  struct {
    uint32_t numel;
    float exponent; /* float32 */
    uint64_t power; /* integer dtypes: the exponent, >= 0 */
  };
  tp_binary_state binary; /* the other dtypes: the binary engine's, first so its routines read it */
} pow_state;

/* pow.Tensor_Scalar_out(Tensor self, Scalar exponent, *, Tensor(a!) out) -> Tensor(a!):
 * args self, exponent, out, out. */
enum { POW_SELF, POW_EXPONENT, POW_OUT };

static tp_status pow_square_f32(const tp_kernel_call *call) {
  const pow_state *st = call->state;
  const float *x = (const float *)call->args[POW_SELF]->as.tensor->data;
  float *o = (float *)call->args[POW_OUT]->as.tensor->data;
  for (uint32_t i = 0; i < st->numel; i++) {
    o[i] = x[i] * x[i];
  }
  return TP_OK;
}

static tp_status pow_f32(const tp_kernel_call *call) {
  const pow_state *st = call->state;
  const float e = st->exponent;
  const float *x = (const float *)call->args[POW_SELF]->as.tensor->data;
  float *o = (float *)call->args[POW_OUT]->as.tensor->data;
  for (uint32_t i = 0; i < st->numel; i++) {
    o[i] = powf(x[i], e);
  }
  return TP_OK;
}

/* x ** n by squaring, in wrapping unsigned arithmetic. */
static uint64_t ipow(uint64_t x, uint64_t n) {
  uint64_t r = 1;
  while (n != 0) {
    if (n & 1u) {
      r *= x;
    }
    x *= x;
    n >>= 1;
  }
  return r;
}

static tp_status pow_i32(const tp_kernel_call *call) {
  const pow_state *st = call->state;
  const int32_t *x = (const int32_t *)call->args[POW_SELF]->as.tensor->data;
  int32_t *o = (int32_t *)call->args[POW_OUT]->as.tensor->data;
  for (uint32_t i = 0; i < st->numel; i++) {
    o[i] = (int32_t)(uint32_t)ipow((uint64_t)(int64_t)x[i], st->power);
  }
  return TP_OK;
}

static tp_status pow_i64(const tp_kernel_call *call) {
  const pow_state *st = call->state;
  const int64_t *x = (const int64_t *)call->args[POW_SELF]->as.tensor->data;
  int64_t *o = (int64_t *)call->args[POW_OUT]->as.tensor->data;
  for (uint32_t i = 0; i < st->numel; i++) {
    o[i] = (int64_t)ipow((uint64_t)x[i], st->power);
  }
  return TP_OK;
}

/* --- pow.Tensor_Tensor_out and pow.Scalar_out --- */

static float pow_any_f32(float a, float b) { return powf(a, b); }

static int64_t pow_any_int(int64_t a, int64_t b) {
  const double r = pow((double)a, (double)b);
  return r != r || r >= 9223372036854775807.0 || r <= -9223372036854775808.0 ? 0 : (int64_t)r;
}

const tp_binary_fns tp_pow_fns = {TP_BINARY_ARITH, pow_any_f32, pow_any_int, false};

TP_KERNEL(aten, pow, Tensor_Scalar_out, pow_state) {
  tp_tensor *in, *out;
  TP_TRY(tp_elementwise_args(call, POW_OUT, &in, &out));
  int64_t n = 0;
  const bool integral = tp_arg_int_scalar(call->args, call->nargs, POW_EXPONENT, &n) == TP_OK && n >= 0;
  const bool fast = in->dtype == out->dtype && (out->dtype == TP_DTYPE_FLOAT32 ||
                    ((out->dtype == TP_DTYPE_INT32 || out->dtype == TP_DTYPE_INT64) && integral));
  if (!fast) {
    if (tp_dtypes_pow_scalar == NULL) {
      return TP_ERR_UNSUPPORTED; /* the dtype extension, which this firmware lacks */
    }
    return tp_dtypes_pow_scalar(call, &state->binary, run);
  }
  TP_CHECK_ARGS(tp_same_shape(in, out));
  state->numel = out->numel;
  if (out->dtype == TP_DTYPE_FLOAT32) {
    double e;
    TP_TRY(tp_arg_scalar(call->args, call->nargs, POW_EXPONENT, &e));
    state->exponent = (float)e;
    *run = e == 2.0 ? pow_square_f32 : pow_f32;
    return TP_OK;
  }
  state->power = (uint64_t)n;
  return tp_pick_run(out->dtype, 0, pow_i32, pow_i64, run); /* float32 returned above */
}

/* pow.Tensor_Tensor_out(Tensor self, Tensor exponent, *, Tensor(a!) out): args self, exponent, out, out. */
TP_BINARY_KERNEL(aten, pow, Tensor_Tensor_out, tp_pow_fns)

/* pow.Scalar_out(Scalar self, Tensor exponent, *, Tensor(a!) out): args self, exponent, out, out. */
TP_KERNEL(aten, pow, Scalar_out, tp_binary_state) {
  return tp_binary_prepare(call, state, run, &tp_pow_fns, TP_BINARY_SCALAR_SELF, 2);
}
