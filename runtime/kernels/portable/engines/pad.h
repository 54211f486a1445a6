/* The shared engine of reflection_pad{1,2,3}d and replication_pad{1,2,3}d: out is self padded in
 * its last k dimensions, padding = (before, after) pairs starting from the last dimension (as
 * F.pad takes them). An out coordinate o reads self at o - before, mapped back inside the
 * dimension by reflecting about the edge (without repeating it) or by clamping to it. */
#ifndef TINYPTE_KERNELS_ENGINES_PAD_H
#define TINYPTE_KERNELS_ENGINES_PAD_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel_util.h"

typedef enum tp_pad_mode { TP_PAD_REFLECT, TP_PAD_REPLICATE } tp_pad_mode;

typedef struct tp_pad_state {
  uint32_t in_sizes[TP_MAX_DIM];
  uint32_t out_sizes[TP_MAX_DIM];
  uint32_t before[TP_MAX_DIM]; /* padding before each dimension (0 for unpadded ones) */
  uint32_t numel;              /* out's elements */
  uint8_t dim;
  uint8_t mode;                /* tp_pad_mode */
  uint8_t esize;
} tp_pad_state;

/** Check `op.out(Tensor self, SymInt[2k] padding, *, Tensor(a!) out)` for k = `padded` dimensions
 *  (self has k or k + 1 or more dimensions) and plan; reflection needs each padding smaller than
 *  its dimension, replication a non-empty dimension. */
tp_status tp_pad_prepare(const tp_kernel_call *call, tp_pad_state *state, tp_kernel_run_fn *run, uint32_t padded,
                         tp_pad_mode mode);

#endif /* TINYPTE_KERNELS_ENGINES_PAD_H */
