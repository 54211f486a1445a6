/* The argument slots of the four int8 convolution operators and which kind of convolution a call
 * is: what the description of a call (tp_s8_conv_derive, s8_conv.c) and its checks at prepare
 * (s8_conv_call.c) read. Private to those two files. */
#ifndef TINYPTE_KERNELS_CORTEX_M_ENGINES_S8_CONV_ARGS_H
#define TINYPTE_KERNELS_CORTEX_M_ENGINES_S8_CONV_ARGS_H

#include <stdbool.h>

#include "cortex_m/engines/s8_conv.h"

/* Argument slots: quantized_conv2d(input, weight, bias, stride, padding, dilation, input_offset,
 * output_offset, requantize_multipliers, requantize_shifts, activation_min, activation_max,
 * scratch, *, out) -> out; the depthwise operators take depth_multiplier after dilation. */
enum {
  A_IN,
  A_W,
  A_BIAS,
  A_STRIDE,
  A_PADDING,
  A_DILATION,
  A_DEPTH_MULTIPLIER, /* depthwise only: the slots below move up by one */
  A_IN_OFFSET = 6,
  A_OUT_OFFSET,
  A_MULT,
  A_SHIFT,
  A_MIN,
  A_MAX,
  A_SCRATCH,
  A_OUT,
  A_NARGS = A_OUT + 2,
};

/* Which kind of convolution a call is, from its state (all a call keeps in the pool). */
static inline bool is_depthwise(tp_s8_conv_kind kind) { return kind == TP_S8_DEPTHWISE_NCHW || kind == TP_S8_DEPTHWISE_NHWC; }
static inline bool is_nhwc(tp_s8_conv_kind kind) { return kind == TP_S8_CONV_NHWC || kind == TP_S8_DEPTHWISE_NHWC; }

#endif /* TINYPTE_KERNELS_CORTEX_M_ENGINES_S8_CONV_ARGS_H */
