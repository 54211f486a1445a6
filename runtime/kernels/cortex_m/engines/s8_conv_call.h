/* The int8 convolution operators' prepare and run: cortex_m::quantized_conv2d(_nhwc).out and
 * cortex_m::quantized_depthwise_conv2d(_nhwc).out call these. They use the engine (s8_conv.h),
 * the in-place routine when the firmware links it (extensions/s8_conv_in_place.h) and a band of
 * rows on one core or two (s8_conv_band.h). */
#ifndef TINYPTE_KERNELS_CORTEX_M_ENGINES_S8_CONV_CALL_H
#define TINYPTE_KERNELS_CORTEX_M_ENGINES_S8_CONV_CALL_H

#include "cortex_m/engines/s8_conv.h"

/** Check a call of the operator of `kind`, keep its kind in `state` and pick the routine (*run). */
tp_status tp_s8_conv_prepare(const tp_kernel_call *call, tp_s8_conv_kind kind, tp_s8_conv_call *state,
                             tp_kernel_run_fn *run);

/** The portable routine: every layout, group count and depth multiplier. */
tp_status tp_s8_conv_run_portable(const tp_kernel_call *call);

/** The fast routine (tp_s8_conv_fast) of an _nhwc call with one group or depthwise. */
tp_status tp_s8_conv_run_fast(const tp_kernel_call *call);

/** tp_s8_conv_run_fast with TP_S8_CONV_STACK_SCRATCH bytes of stack as its scratch. */
tp_status tp_s8_conv_run_fast_stack(const tp_kernel_call *call);

#endif /* TINYPTE_KERNELS_CORTEX_M_ENGINES_S8_CONV_CALL_H */
