/* The general float32 convolution behind aten::convolution.out where its fast routines do not
 * apply: 1 to 3 spatial dims, direct or transposed, groups, dilation, output_padding, and
 * tensors in any dim order tinypte runs (each read through its element strides, so a
 * channels-last input is read in place and a channels-last out written in place).
 *
 *  - direct:     out[n, oc, o] = sum over the input channels ci of oc's group, then the taps t
 *                (outermost spatial dim first, each in increasing order) of
 *                in[n, ci, o * stride - padding + t * dilation] * weight[oc, ci - group start, t];
 *  - transposed: out[n, oc, o] = the same sum over the inputs i with
 *                o = i * stride - padding + t * dilation, of in[n, ci, i] * weight[ci, oc in
 *                group, t] (weight is [C, OC / groups, k...]).
 * Taps outside the input are skipped; the bias is added last, then a fused activation.
 */
#ifndef TINYPTE_KERNELS_ENGINES_CONV_ND_H
#define TINYPTE_KERNELS_ENGINES_CONV_ND_H

#include <stdbool.h>
#include <stdint.h>

#include "tinypte/kernel.h"

enum { TP_CONV_ND_MAX_SPATIAL = 3 };

/* What prepare fixes; run reads the batch, channel counts and element strides from the tensors
 * (so the state stays within aten::convolution's own, which the kernel's state size is). */
typedef struct tp_conv_nd {
  int32_t cg, ocg; /* input and out channels per group */
  int32_t in[TP_CONV_ND_MAX_SPATIAL], out[TP_CONV_ND_MAX_SPATIAL], k[TP_CONV_ND_MAX_SPATIAL];
  int32_t s[TP_CONV_ND_MAX_SPATIAL], p[TP_CONV_ND_MAX_SPATIAL], d[TP_CONV_ND_MAX_SPATIAL];
  uint8_t spatial; /* 1..3 */
  bool transposed, has_bias, clamped;
  tp_clamp clamp;
} tp_conv_nd;

/* aten::convolution.out's argument slots: (input, weight, bias, stride, padding, dilation,
 * transposed, output_padding, groups, *, out) -> out. */
enum {
  TP_CONV_IN,
  TP_CONV_WEIGHT,
  TP_CONV_BIAS,
  TP_CONV_STRIDE,
  TP_CONV_PADDING,
  TP_CONV_DILATION,
  TP_CONV_TRANSPOSED,
  TP_CONV_OUTPUT_PADDING,
  TP_CONV_GROUPS,
  TP_CONV_OUT,
  TP_CONV_NARGS = TP_CONV_OUT + 2,
};

/** Check a convolution call for the general routine and fill `st`: the extension kernel's
 *  (runtime/kernels/extensions/conv_general.c), weak: NULL when firmware does not link it. */
tp_status tp_conv_general_prepare(const tp_kernel_call *call, tp_conv_nd *st, tp_kernel_run_fn *run)
    __attribute__((weak));

/** Compute the convolution `call->state` (a tp_conv_nd) describes. */
tp_status tp_conv_nd_run(const tp_kernel_call *call);

#endif /* TINYPTE_KERNELS_ENGINES_CONV_ND_H */
