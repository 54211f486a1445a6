/* Copies where each out coordinate maps to one self coordinate dimension by dimension (flip,
 * roll, repeat): self index = (out index + shift) mod self size, or size - 1 - out index where
 * flipped. prepare fills a tp_remap_state; run is tp_remap_run. */
#ifndef TINYPTE_KERNELS_ENGINES_REMAP_H
#define TINYPTE_KERNELS_ENGINES_REMAP_H

#include <stdint.h>

#include "kernel_util.h"

typedef struct tp_remap_state {
  uint32_t out_sizes[TP_MAX_DIM];
  uint32_t in_sizes[TP_MAX_DIM];
  uint32_t shift[TP_MAX_DIM];   /* in [0, in size) */
  uint32_t numel;               /* out's elements */
  uint8_t dim;
  uint8_t flip;                 /* bit d: dimension d is reversed */
  uint8_t esize;                /* bytes per element */
  uint8_t out;                  /* argument slot of out */
} tp_remap_state;

/** Start a plan for self `in` into out (argument slot `out_slot`): identity mapping, out sizes
 *  equal to self's; the kernel then sets shifts, flips or larger out sizes. */
tp_status tp_remap_init(tp_remap_state *st, const tp_tensor *in, const tp_tensor *out, uint32_t out_slot);

/** Copy self (args[0]) into out as the state maps. */
tp_status tp_remap_run(const tp_kernel_call *call);

#endif /* TINYPTE_KERNELS_ENGINES_REMAP_H */
