/* The int8 2-D poolings of the Cortex-M backend: cortex_m::quantized_max_pool2d(_nhwc) and
 * cortex_m::quantized_avg_pool2d(_nhwc). Each operator's file checks its call with the
 * prepare function here and picks one of the run routines for its layout: the *_nhwc
 * operators take NHWC tensors, the legacy ones NCHW tensors (both contiguous, as every
 * tinypte tensor), with the same logical (N, C, H, W) semantics.
 *
 * Semantics (operators.py's *_impl):
 *  - kernel_size, stride, padding: one or two items each; kernel and stride >= 1 and
 *    0 <= padding <= kernel / 2 (aten's pooling checks); out (H + 2p - k [+ s - 1 in ceil
 *    mode]) / s + 1, in ceil mode one less when the last window would start in the right
 *    padding.
 *  - max pool: padding is never a candidate (aten pads with -inf); out = clamp(max,
 *    activation_min, activation_max). The reference refuses dilation != 1, ceil_mode and
 *    input_zero_point != output_zero_point, so these are argument errors here too.
 *  - avg pool: float32 arithmetic, as the reference: each element dequantized as
 *    (float)(q - zero_point) * scale with scale = (float)(multiplier * 2^(shift - 31)), the
 *    window's valid elements summed in row order (count_include_pad = False), the sum
 *    divided by their count, then round_half_even(avg / scale) + zero_point saturated to
 *    int8. The backend pads explicitly (cortex_m::pad) when count_include_pad is wanted.
 */
#ifndef TINYPTE_KERNELS_CORTEX_M_ENGINES_S8_POOL_H
#define TINYPTE_KERNELS_CORTEX_M_ENGINES_S8_POOL_H

#include "cortex_m/engines/int8_util.h"

/* The geometry of a pooling, as prepare checked it. */
typedef struct tp_s8_pool {
  int32_t n, c;         /* batch, channels */
  int32_t ih, iw;       /* input height, width */
  int32_t oh, ow;       /* out height, width */
  int32_t kh, kw;       /* window */
  int32_t sh, sw;       /* stride */
  int32_t ph, pw;       /* padding (top/left; bottom/right only bound the windows) */
} tp_s8_pool;

typedef struct tp_s8_max_pool_state {
  tp_s8_pool g;
  int32_t lo, hi; /* activation range */
} tp_s8_max_pool_state;

typedef struct tp_s8_avg_pool_state {
  tp_s8_pool g;
  float scale;     /* multiplier * 2^(shift - 31), rounded to float32 */
  int32_t zero_point;
} tp_s8_avg_pool_state;

/* What a pooling call keeps in the state pool: whether its operator's tensors are NHWC-shaped.
 * The rest (tp_s8_max_pool_state, tp_s8_avg_pool_state) follows from the call's arguments and
 * each run derives it again, a few dozen instructions, instead of keeping 56 bytes per call in
 * RAM. */
typedef struct tp_s8_pool_call {
  uint8_t nhwc;
} tp_s8_pool_call;

/** Check a quantized_max_pool2d(_nhwc).out call, keep its layout in `state` and describe it in
 *  `st` (for the choice of routine; nhwc: the layout). */
tp_status tp_s8_max_pool_prepare(const tp_kernel_call *call, tp_s8_pool_call *state, bool nhwc,
                                 tp_s8_max_pool_state *st);

/** true for a 2x2 window with stride 2 and no padding (the run routines *_2x2 compute it). */
static inline bool tp_s8_pool_is_2x2(const tp_s8_pool *g) {
  return g->kh == 2 && g->kw == 2 && g->sh == 2 && g->sw == 2 && g->ph == 0 && g->pw == 0;
}

tp_status tp_s8_max_pool_nhwc_run(const tp_kernel_call *call);
tp_status tp_s8_max_pool_nhwc_2x2_run(const tp_kernel_call *call);
tp_status tp_s8_max_pool_nchw_run(const tp_kernel_call *call);
tp_status tp_s8_max_pool_nchw_2x2_run(const tp_kernel_call *call);

/** Check a quantized_avg_pool2d(_nhwc).out call and keep its layout in `state`. */
tp_status tp_s8_avg_pool_prepare(const tp_kernel_call *call, tp_s8_pool_call *state, bool nhwc);

tp_status tp_s8_avg_pool_nhwc_run(const tp_kernel_call *call);
tp_status tp_s8_avg_pool_nchw_run(const tp_kernel_call *call);

#endif /* TINYPTE_KERNELS_CORTEX_M_ENGINES_S8_POOL_H */
