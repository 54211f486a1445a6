/* The int8 transposed convolution of the Cortex-M backend: cortex_m::quantized_transpose_conv2d
 * (NCHW tensors, the legacy dim-order operator) and quantized_transpose_conv2d_nhwc (NHWC),
 * both contiguous as every tinypte tensor; each operator's file checks its call with the
 * prepare here and runs its layout's routine.
 *
 * Semantics (operators.py's quantized_transpose_conv2d_impl): weight is OHWI, (C_out, KH, KW,
 * C_in) with C_in the input's channels (the reference's groups = C_in / weight.shape[3] only
 * works out as 1); out (N, C_out, OH, OW) with OH = (H - 1) * stride - 2 * padding + dilation *
 * (KH - 1) + output_padding + 1, output_padding < stride or < dilation (aten's rule);
 *   acc[co, oy, ox] = bias[co] + sum (in[ci, iy, ix] + input_offset) * weight[co, ky, kx, ci]
 * over oy = iy * stride - padding + ky * dilation (same for x), then
 *   out = clamp(requantize(acc, multipliers[co], shifts[co]) + output_offset, act_min, act_max)
 * with requantize = tp_requantize (passes_utils.requantize_cmsis). The reference accumulates in
 * float32 (aten's conv_transpose2d) and converts to int32: exact, and so equal to this int32
 * sum, while every partial sum stays within 2^24 in magnitude (about 500 taps of extreme
 * values; real layers stay far below). No scratch: both scratch arguments may be empty.
 */
#ifndef TINYPTE_KERNELS_CORTEX_M_ENGINES_S8_TRANSPOSE_CONV_H
#define TINYPTE_KERNELS_CORTEX_M_ENGINES_S8_TRANSPOSE_CONV_H

#include "cortex_m/engines/int8_util.h"

typedef struct tp_s8_tconv_state {
  int32_t n, ci, ih, iw;   /* input */
  int32_t co, oh, ow;      /* out */
  int32_t kh, kw;          /* weight window */
  int32_t sh, sw, ph, pw;  /* stride, padding */
  int32_t dh, dw;          /* dilation */
  int32_t in_offset, out_offset;
  int32_t lo, hi;          /* activation range */
} tp_s8_tconv_state;

/** Check a quantized_transpose_conv2d(_nhwc).out call and fill `state` (nhwc: the layout). */
tp_status tp_s8_tconv_prepare(const tp_kernel_call *call, tp_s8_tconv_state *state, bool nhwc);

tp_status tp_s8_tconv_nhwc_run(const tp_kernel_call *call);
tp_status tp_s8_tconv_nchw_run(const tp_kernel_call *call);

#endif /* TINYPTE_KERNELS_CORTEX_M_ENGINES_S8_TRANSPOSE_CONV_H */
