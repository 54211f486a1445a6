/* cortex_m::quantize_per_tensor.out: float32 -> int8, as quantized_decomposed.quantize_per_tensor:
 * q = clamp(round_half_even(x * (float)(1 / scale)) + zero_point, quant_min, quant_max).
 * The product is float32 (torch multiplies a float32 tensor by the scalar as float32); rintf
 * rounds half to even as torch.round does. NaN inputs give the zero point (the reference's
 * float-to-int8 conversion of NaN is undefined). */
#include <math.h>

#include "cortex_m/engines/int8_util.h"

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 2)
#include <arm_mve.h>
#endif

typedef struct quantize_state {
  float inv_scale, zero_point, lo, hi;
  uint32_t numel;
} quantize_state;

/* quantize_per_tensor.out(Tensor input, float scale, int zero_point, int quant_min, int quant_max,
 * ScalarType dtype, *, Tensor(a!) out) -> Tensor(a!) */
enum { Q_INPUT, Q_OUT = 6, Q_NARGS = 8 };

static tp_status quantize_run(const tp_kernel_call *call) {
  const quantize_state st = *(const quantize_state *)call->state; /* locals: the stores cannot alias them */
  const float *x = (const float *)call->args[Q_INPUT]->as.tensor->data;
  int8_t *q = (int8_t *)call->args[Q_OUT]->as.tensor->data;
  uint32_t i = 0;
#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 2)
  /* Helium with floating point: four lanes a step, the same operations (VRINTX rounds half to
   * even as rintf; a NaN lane compares unequal to itself and takes the zero point). */
  const float32x4_t lo = vdupq_n_f32(st.lo), hi = vdupq_n_f32(st.hi), zp = vdupq_n_f32(st.zero_point);
  for (; i + 4 <= st.numel; i += 4) {
    float32x4_t v = vaddq_f32(vrndxq_f32(vmulq_n_f32(vld1q_f32(x + i), st.inv_scale)), zp);
    v = vpselq_f32(vminnmq_f32(vmaxnmq_f32(v, lo), hi), zp, vcmpeqq_f32(v, v));
    vstrbq_s32(q + i, vcvtq_s32_f32(v));
  }
#endif
  for (; i < st.numel; i++) {
    float v = rintf(x[i] * st.inv_scale) + st.zero_point;
    v = v < st.lo ? st.lo : v;
    v = v > st.hi ? st.hi : v;
    /* NaN (v != v) gives the zero point; the value is chosen before the one, unconditional
     * conversion (GCC 12 puts a conditional float-to-int conversion in an IT block, which the
     * assembler rejects for Armv8.1-M MVE targets such as the Cortex-M55). */
    v = v == v ? v : st.zero_point;
    q[i] = (int8_t)(int32_t)v;
  }
  return TP_OK;
}

TP_KERNEL_WITH(cortex_m, quantize_per_tensor, out, quantize_state, TP_KERNEL_DIM_ORDERS) {
  tp_tensor *in, *out, *ret;
  double scale;
  int32_t zero_point, lo, hi;
  TP_CHECK_ARGS(call->nargs == Q_NARGS);
  TP_TRY(tp_arg_tensor(call->args, call->nargs, Q_INPUT, &in));
  TP_TRY(tp_arg_s8_tensor(call->args, call->nargs, Q_OUT, &out));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, Q_OUT + 1, &ret));
  if (in->dtype != TP_DTYPE_FLOAT32) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_TRY(tp_quant_params(call->args, call->nargs, &scale, &zero_point, &lo, &hi));
  TP_CHECK_ARGS(tp_same_shape(in, out));
  TP_TRY(tp_in_out_same_dim_order(call)); /* elementwise: any one memory order */
  state->inv_scale = (float)(1.0 / scale);
  state->zero_point = (float)zero_point;
  state->lo = (float)lo;
  state->hi = (float)hi;
  state->numel = out->numel;
  *run = quantize_run;
  return TP_OK;
}
