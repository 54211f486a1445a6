/* Extension of aten::max_pool2d_with_indices.out: its routine for float32 channels-last tensors
 * (a program exported with channels-last inputs pools them in place). The kernel calls
 * tp_max_pool_nhwc_run through a weak reference; this file is linked when a kernel registry
 * lists tinypte::max_pool_nhwc.ext, which it does for programs that need it
 * (python/tinypte/inspect_pte/extensions.py). The extension kernel is never a program's
 * operator. */
#include "portable/engines/max_pool.h"

/* Channels-last float32 (input, out and indices N, H, W, C in memory): the kernel's windows,
 * visiting order and comparison, for each channel of an output position in turn; indices are
 * still h * W + w within the channel's plane. */
tp_status tp_max_pool_nhwc_run(const tp_kernel_call *call) {
  tp_max_pool_f32(call, ((const tp_max_pool_state *)call->state)->channels);
  return TP_OK;
}

/* The extension's registry entry: what makes firmware link this file. Never a program's operator. */
TP_KERNEL(tinypte, max_pool_nhwc, ext, tp_max_pool_state) {
  (void)call;
  (void)state;
  (void)run;
  return TP_ERR_UNSUPPORTED;
}
