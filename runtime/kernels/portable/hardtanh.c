/* aten::hardtanh.out: out = min(max(self, min_val), max_val) elementwise, float32. NaN inputs
 * (and NaN bounds) propagate, like ExecuTorch's portable kernel (min/max_override). prepare
 * converts the bounds to float once. */
#include <math.h>

#include "kernel_util.h"

typedef struct hardtanh_state {
  tp_clamp fusable; /* [lo, hi] unless a bound is NaN, for activation fusion */
  uint32_t numel;   /* elements of self and out */
  float lo, hi;     /* min_val, max_val as float */
} hardtanh_state;

/* hardtanh.out(Tensor self, Scalar min_val=-1, Scalar max_val=1, *, Tensor(a!) out) -> Tensor(a!):
 * args self, min_val, max_val, out, out. */
enum { HARDTANH_SELF, HARDTANH_MIN, HARDTANH_MAX, HARDTANH_OUT };

static tp_status hardtanh_f32(const tp_kernel_call *call) {
  const hardtanh_state *st = call->state;
  const float lo = st->lo;
  const float hi = st->hi;
  const float *x = (const float *)call->args[HARDTANH_SELF]->as.tensor->data;
  float *o = (float *)call->args[HARDTANH_OUT]->as.tensor->data;
  for (uint32_t i = 0; i < st->numel; i++) {
    float v = x[i];
    if (!isnan(v)) {
      v = isnan(lo) ? lo : (v < lo ? lo : v); /* max_override(v, lo) */
    }
    if (!isnan(v)) {
      v = isnan(hi) ? hi : (hi < v ? hi : v); /* min_override(v, hi) */
    }
    o[i] = v;
  }
  return TP_OK;
}

TP_KERNEL_WITH(aten, hardtanh, out, hardtanh_state, TP_KERNEL_CLAMP | TP_KERNEL_DIM_ORDERS) {
  tp_tensor *in, *out;
  double min_d, max_d;
  TP_TRY(tp_elementwise_args(call, HARDTANH_OUT, &in, &out));
  TP_TRY(tp_arg_scalar(call->args, call->nargs, HARDTANH_MIN, &min_d));
  TP_TRY(tp_arg_scalar(call->args, call->nargs, HARDTANH_MAX, &max_d));
  if (in->dtype != TP_DTYPE_FLOAT32 || out->dtype != TP_DTYPE_FLOAT32) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(tp_same_shape(in, out));
  state->numel = out->numel;
  state->lo = (float)min_d;
  state->hi = (float)max_d;
  tp_clamp_offer(&state->fusable, true, state->lo, state->hi);
  *run = hardtanh_f32;
  return TP_OK;
}
