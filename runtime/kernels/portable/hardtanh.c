/* aten::hardtanh.out: out = min(max(self, min_val), max_val) elementwise. float32: NaN inputs
 * (and NaN bounds) propagate, like ExecuTorch's portable kernel (min/max_override); integer
 * dtypes (int8, uint8, int16, int32, int64) clamp to the bounds converted to the integer type
 * (truncated), as that kernel does, with the dtype extension (engines/dtypes.h). prepare
 * converts the bounds once. */
#include <math.h>

#include "portable/engines/dtypes.h"
#include "kernel_util.h"
#include "util/elem.h"

typedef struct hardtanh_state {
  tp_clamp fusable; /* [lo, hi] unless a bound is NaN, for activation fusion */
  uint32_t numel;   /* elements of self and out */
  float lo, hi;     /* min_val, max_val as float */
  int64_t ilo, ihi; /* and as integers, for the integer routine */
  uint8_t dtype;
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

/* The integer dtypes: the dtype extension's. */
static tp_status hardtanh_int(const tp_kernel_call *call) {
  const hardtanh_state *st = call->state;
  tp_dtypes_clamp_int(call->args[HARDTANH_SELF]->as.tensor->data, call->args[HARDTANH_OUT]->as.tensor->data,
                      st->dtype, st->numel, st->ilo, true, st->ihi, true);
  return TP_OK;
}

TP_KERNEL_WITH(aten, hardtanh, out, hardtanh_state, TP_KERNEL_CLAMP | TP_KERNEL_DIM_ORDERS) {
  tp_tensor *in, *out;
  double min_d, max_d;
  TP_TRY(tp_elementwise_args(call, HARDTANH_OUT, &in, &out));
  TP_TRY(tp_arg_scalar(call->args, call->nargs, HARDTANH_MIN, &min_d));
  TP_TRY(tp_arg_scalar(call->args, call->nargs, HARDTANH_MAX, &max_d));
  int64_t range_lo, range_hi;
  const bool integer = tp_dtype_int_range(in->dtype, &range_lo, &range_hi);
  if (in->dtype != out->dtype || (in->dtype != TP_DTYPE_FLOAT32 && !integer)) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(tp_same_shape(in, out));
  state->numel = out->numel;
  state->lo = (float)min_d;
  state->hi = (float)max_d;
  state->dtype = (uint8_t)in->dtype;
  if (integer && tp_dtypes_clamp_int == NULL) {
    return TP_ERR_UNSUPPORTED; /* the dtype extension, which this firmware lacks */
  }
  if (integer) {
    TP_CHECK_ARGS(min_d >= (double)range_lo && min_d <= (double)range_hi);
    TP_CHECK_ARGS(max_d >= (double)range_lo && max_d <= (double)range_hi);
    state->ilo = (int64_t)min_d;
    state->ihi = (int64_t)max_d;
  }
  tp_clamp_offer(&state->fusable, !integer, state->lo, state->hi);
  *run = integer ? hardtanh_int : hardtanh_f32;
  return TP_OK;
}
