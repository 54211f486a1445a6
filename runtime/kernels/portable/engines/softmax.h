/* What aten::_softmax and aten::_log_softmax share: their prepare (argument checks and the
 * slicing of the input into `outer * inner` slices of `size` elements, `inner` apart, kept in
 * the state) and the loop over the slices their run routines use (see engines/softmax.c). */
#ifndef TINYPTE_KERNELS_ENGINES_SOFTMAX_H
#define TINYPTE_KERNELS_ENGINES_SOFTMAX_H

#include "kernel_util.h"

/* The per-instruction state: the slicing. */
typedef struct tp_softmax_state {
  uint32_t outer; /* slices before the softmax dim (0: nothing to compute) */
  uint32_t size;  /* elements along the softmax dim */
  uint32_t inner; /* stride between them (elements after the dim) */
} tp_softmax_state;

/* (Tensor self, int dim, bool half_to_float, *, Tensor(a!) out) -> Tensor(a!):
 * args self, dim, half_to_float, out, out. */
enum { TP_SOFTMAX_SELF, TP_SOFTMAX_DIM, TP_SOFTMAX_HALF_TO_FLOAT, TP_SOFTMAX_OUT, TP_SOFTMAX_NARGS = 5 };

/** Check the call's arguments and plan the slices (state->outer is 0 when there is nothing to
 *  compute); *run is `routine` when the call is accepted. */
tp_status tp_softmax_prepare(const tp_kernel_call *call, tp_softmax_state *state, tp_kernel_run_fn *run,
                             tp_kernel_run_fn routine);

/** The largest element of the slice starting at `x` (std::max order, as portable's). */
float tp_softmax_slice_max(const float *x, uint32_t size, uint32_t inner);

/* Computes one slice: `size` elements `inner` apart from `x` to `out`, given its maximum. */
typedef void (*tp_softmax_slice_fn)(const float *x, float *out, uint32_t size, uint32_t inner, float max);

/** Run `slice` over every slice of the prepared call: a run routine's body (always TP_OK). */
tp_status tp_softmax_each_slice(const tp_kernel_call *call, tp_softmax_slice_fn slice);

#endif /* TINYPTE_KERNELS_ENGINES_SOFTMAX_H */
