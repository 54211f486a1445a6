/* aten::div.out_mode and aten::div.Scalar_mode_out: self / other with a rounding_mode,
 * elementwise with broadcasting and type promotion (div.c has the plain true division).
 *  - None: true division, computed in float, out float32;
 *  - "trunc": the quotient rounded toward zero (floats: truncf(a / b); integers: C's /);
 *  - "floor": Python's // (engines/floor_divide.h).
 * Integer division by zero fails the run with TP_ERR_DIVISION_BY_ZERO. */
#include <math.h>

#include "portable/engines/binary.h"
#include "portable/engines/floor_divide.h"

/* div.out_mode(Tensor self, Tensor other, *, str? rounding_mode, Tensor(a!) out) and
 * div.Scalar_mode_out(Tensor self, Scalar other, *, str? rounding_mode, Tensor(a!) out):
 * args self, other, rounding_mode, out, out. */
enum { DIV_MODE_ARG = 2, DIV_MODE_OUT = 3 };

static float div_true_f32(float a, float b) { return a / b; }

static float div_trunc_f32(float a, float b) { return truncf(a / b); }

static int64_t div_trunc_i64(int64_t a, int64_t b) { return b == -1 ? (int64_t)(0u - (uint64_t)a) : a / b; }

static const tp_binary_fns div_true_fns = {TP_BINARY_ARITH, div_true_f32, 0, false};
static const tp_binary_fns div_trunc_fns = {TP_BINARY_ARITH, div_trunc_f32, div_trunc_i64, true};
static const tp_binary_fns div_floor_fns = {TP_BINARY_ARITH, tp_floor_divide_f32, tp_floor_divide_i64, true};

/* The functions for the rounding_mode argument (None, "trunc" or "floor"). */
static tp_status div_mode_fns(const tp_kernel_call *call, const tp_binary_fns **fns) {
  const char *mode;
  uint32_t len;
  if (call->nargs > DIV_MODE_ARG && call->args[DIV_MODE_ARG]->tag == TP_TAG_NONE) {
    *fns = &div_true_fns;
    return TP_OK;
  }
  TP_TRY(tp_arg_string(call->args, call->nargs, DIV_MODE_ARG, &mode, &len));
  if (tp_string_equals(mode, len, "trunc")) {
    *fns = &div_trunc_fns;
  } else if (tp_string_equals(mode, len, "floor")) {
    *fns = &div_floor_fns;
  } else {
    return TP_ERR_KERNEL_ARGS;
  }
  return TP_OK;
}

TP_KERNEL_WITH(aten, div, out_mode, tp_binary_state, TP_KERNEL_DYNAMIC_SHAPES) {
  const tp_binary_fns *fns;
  TP_TRY(div_mode_fns(call, &fns));
  return tp_binary_prepare(call, state, run, fns, TP_BINARY_NO_SCALAR, DIV_MODE_OUT);
}

TP_KERNEL_WITH(aten, div, Scalar_mode_out, tp_binary_state, TP_KERNEL_DYNAMIC_SHAPES) {
  const tp_binary_fns *fns;
  TP_TRY(div_mode_fns(call, &fns));
  return tp_binary_prepare(call, state, run, fns, TP_BINARY_SCALAR_OTHER, DIV_MODE_OUT);
}
