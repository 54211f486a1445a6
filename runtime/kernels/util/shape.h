/* Shapes: comparing them, checking an out's (and giving a dynamic out its shape), dims,
 * multi-index iteration, strides, (outer, size, inner) blocks, slice bounds and permutations. */
#ifndef TINYPTE_KERNELS_UTIL_SHAPE_H
#define TINYPTE_KERNELS_UTIL_SHAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tinypte/kernel.h"

/** true when a and b have the same dim and sizes. */
bool tp_same_shape(const tp_tensor *a, const tp_tensor *b);
/** Normalize a possibly negative dim against `dim` dimensions (dim 0 tensors accept 0/-1). */
tp_status tp_normalize_dim(int64_t d, uint32_t dim, uint32_t *out);
/** Size of dimension d, 1 for scalar tensors' virtual dim. */
static inline int32_t tp_size(const tp_tensor *t, uint32_t d) { return d < t->dim ? t->sizes[d] : 1; }

/** The element stride of each dimension of `t` (its dim order applied): for a contiguous
 *  tensor the row-major strides, for a channels-last one C's stride is 1. */
void tp_tensor_strides(const tp_tensor *t, int32_t strides[TP_MAX_DIM]);

/** true when t is laid out the same in both dim orders: a 4-D or 5-D tensor with one channel or
 *  one spatial position (the loader marks such tensors contiguous, value.h). Defined with the
 *  dim-order extension (extensions/dim_orders.c), weak: without it no tensor is channels-last,
 *  and callers ask only when a tensor is (a NULL here is never called). */
bool tp_tensor_order_free(const tp_tensor *t) __attribute__((weak));

/** true when element i of a's memory and of b's memory are the same logical element (for
 *  tensors of one shape): both in one dim order, or one of them laid out the same either way. */
static inline bool tp_same_memory_order(const tp_tensor *a, const tp_tensor *b) {
  return a->channels_last == b->channels_last || tp_tensor_order_free(a) || tp_tensor_order_free(b);
}

/** The memory order of an operator's input (args[0]) and out (args[nargs - 2], before the returned
 *  out), both tensors the kernel's prepare has checked: *channels_last is set when both are
 *  channels-last (an NCHW-shaped tensor laid out NHWC; a tensor laid out the same either way,
 *  tp_tensor_order_free, goes with the other), cleared when both are contiguous; mixed orders
 *  are TP_ERR_DIM_ORDER. */
tp_status tp_in_out_channels_last(const tp_kernel_call *call, bool *channels_last);

/** An elementwise kernel's input (args[0]) and out have one memory order (either), so element i
 *  of one is element i of the other; else TP_ERR_DIM_ORDER. */
static inline tp_status tp_in_out_same_dim_order(const tp_kernel_call *call) {
  bool channels_last;
  return tp_in_out_channels_last(call, &channels_last);
}

/** true when t has exactly `dim` dimensions of the given sizes (how kernels check an out shape). */
bool tp_shape_is(const tp_tensor *t, uint32_t dim, const int32_t *sizes);

/* tp_tensor_resize (runtime/src/dynamic.c) under a second name that kernels refer to weakly:
 * a kernel that only passes dynamic shapes on (tp_out_shape) does not pull dynamic.c into
 * firmware; the kernels that make dynamic shapes call tp_tensor_resize and do. A dynamic
 * tensor exists only when dynamic.c is linked, so the weak reference is never NULL when
 * called. */
tp_status tp_dynamic_resize(tp_tensor *tensor, uint32_t dim, const int32_t *sizes) __attribute__((weak));

/** Check that `out` has the shape sizes[0..dim) the kernel computed, after giving it that shape
 *  if it is dynamic (a kernel flagged TP_KERNEL_DYNAMIC_SHAPES checks its outs this way). */
static inline tp_status tp_out_shape(tp_tensor *out, uint32_t dim, const int32_t *sizes) {
  if (out->dynamic) {
    return tp_dynamic_resize(out, dim, sizes);
  }
  return tp_shape_is(out, dim, sizes) ? TP_OK : TP_ERR_KERNEL_ARGS;
}

/** Advance a row-major multi-index over `dim` dimensions of `sizes` by one element and return the
 *  element offset moved along `strides` (odometer order, last dimension fastest). After the last
 *  element the index wraps to all zeros and the offset to `off` minus the full span. */
static inline uint32_t tp_index_next(uint32_t dim, const uint32_t *sizes, const uint32_t *strides, uint32_t *index,
                                     uint32_t off) {
  for (uint32_t d = dim; d-- > 0;) {
    off += strides[d];
    if (++index[d] < sizes[d]) {
      return off;
    }
    off -= strides[d] * sizes[d];
    index[d] = 0;
  }
  return off;
}

/** The element strides of contiguous `t` (row-major): strides[d] for d < t->dim. */
static inline void tp_contiguous_strides(const tp_tensor *t, uint32_t *strides) {
  uint32_t stride = 1;
  for (uint32_t d = t->dim; d-- > 0;) {
    strides[d] = stride;
    stride *= (uint32_t)t->sizes[d];
  }
}

/** `t` viewed as (outer, size along `dim`, inner): *outer is the product of the sizes before dim,
 *  *inner of those after (1 when there are none). */
static inline void tp_dim_blocks(const tp_tensor *t, uint32_t dim, uint32_t *outer, uint32_t *inner) {
  *outer = 1;
  *inner = 1;
  for (uint32_t d = 0; d < t->dim; d++) {
    if (d < dim) {
      *outer *= (uint32_t)t->sizes[d];
    } else if (d > dim) {
      *inner *= (uint32_t)t->sizes[d];
    }
  }
}

/** A Python slice bound along a dimension of `size`: negative counts from the end, then clamped
 *  to [0, size] (slice_copy, slice_scatter). */
static inline int64_t tp_slice_bound(int64_t v, int64_t size) {
  if (v < 0) {
    v += size;
  }
  return v < 0 ? 0 : v > size ? size : v;
}

/** The view of `in` with its dimensions permuted by `dims[0..len)` (len == in->dim, each dim
 *  once, negative ones allowed; TP_ERR_KERNEL_ARGS otherwise): out dimension k is in's
 *  dimension dims[k], with size sizes[k] and in element stride strides[k] (for tp_gather_plan). */
tp_status tp_permutation(const tp_tensor *in, const int64_t *dims, uint32_t len, int32_t *sizes, uint32_t *strides);

#endif /* TINYPTE_KERNELS_UTIL_SHAPE_H */
