/* What aten::max_pool2d_with_indices.out shares with its integer extension: the state and the
 * argument slots. */
#ifndef TINYPTE_KERNELS_ENGINES_MAX_POOL_H
#define TINYPTE_KERNELS_ENGINES_MAX_POOL_H

#include "util/nn.h"

typedef struct tp_max_pool_state {
  tp_nn_planes2d planes; /* plane count, input and output plane sizes */
  tp_nn_window2d w;      /* kernel size, stride, padding, dilation */
  uint32_t channels;     /* C of a channels-last input (N, H, W, C in memory); 0: contiguous */
} tp_max_pool_state;

/* max_pool2d_with_indices.out(Tensor self, int[2] kernel_size, int[2] stride=[], int[2]
 * padding=0, int[2] dilation=1, bool ceil_mode=False, *, Tensor(a!) out, Tensor(b!) indices):
 * the slots run reads. */
enum { TP_MAX_POOL_IN = 0, TP_MAX_POOL_OUT = 6, TP_MAX_POOL_INDICES = 7 };

/** The routine for integer inputs: the extension's (extensions/max_pool_int.c), weak: NULL
 *  when firmware does not link it. */
tp_status tp_max_pool_int_run(const tp_kernel_call *call) __attribute__((weak));

/** The routine for float32 channels-last tensors: the extension's (extensions/max_pool_nhwc.c),
 *  weak: NULL when firmware does not link it. */
tp_status tp_max_pool_nhwc_run(const tp_kernel_call *call) __attribute__((weak));

#endif /* TINYPTE_KERNELS_ENGINES_MAX_POOL_H */
