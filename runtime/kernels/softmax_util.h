/* What aten::_softmax and aten::_log_softmax share: argument checks and the slicing of the
 * input into `outer * inner` slices of `size` elements, `inner` apart (see softmax_util.c). */
#ifndef TINYPTE_SOFTMAX_UTIL_H
#define TINYPTE_SOFTMAX_UTIL_H

#include "kernel_util.h"

typedef struct tp_softmax_slices {
  const float *in;
  float *out;
  uint32_t outer; /* slices before the softmax dim */
  uint32_t size;  /* elements along the softmax dim */
  uint32_t inner; /* stride between them (elements after the dim) */
} tp_softmax_slices;

/**
 * Check `(Tensor self, int dim, bool half_to_float, *, Tensor(a!) out) -> Tensor(a!)` and
 * plan the slices; s->size is 0 when there is nothing to compute.
 */
tp_status tp_softmax_slices_init(tp_value *const *args, uint32_t nargs, tp_softmax_slices *s);

/** The largest element of the slice starting at `x` (std::max order, as portable's). */
float tp_softmax_slice_max(const float *x, uint32_t size, uint32_t inner);

/* Computes one slice: `size` elements `inner` apart from `x` to `out`, given its maximum. */
typedef void (*tp_softmax_slice_fn)(const float *x, float *out, uint32_t size, uint32_t inner, float max);

/** Run `slice` over every slice of `s`. */
void tp_softmax_each_slice(const tp_softmax_slices *s, tp_softmax_slice_fn slice);

#endif /* TINYPTE_SOFTMAX_UTIL_H */
