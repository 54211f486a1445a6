/* The shared run of split_copy, split_with_sizes_copy and unbind_copy: self cut along `dim` into
 * consecutive pieces, one per out tensor. Viewed as (outer, size along dim, inner), piece k is
 * a run of its length * inner elements in each of the outer blocks. */
#ifndef TINYPTE_KERNELS_ENGINES_SPLIT_H
#define TINYPTE_KERNELS_ENGINES_SPLIT_H

#include <string.h>

#include "kernel_util.h"

typedef struct tp_split_state {
  uint32_t outer;     /* elements of the dimensions before dim */
  uint32_t row;       /* bytes of self per outer index (size along dim * inner * esize) */
  uint32_t unit;      /* bytes of one index along dim (inner * esize) */
  uint32_t list;      /* argument slot of the out list */
} tp_split_state;

/** Check that out tensor k has self's dtype and shape with `lengths(k)` along dim (or, for
 *  unbind, dim removed), and fill the state; lengths must add up to self's size along dim. */
static inline tp_status tp_split_plan(tp_split_state *st, const tp_tensor *in, uint32_t dim, tp_tensor *const *outs,
                                      uint32_t n, bool remove_dim, uint32_t list_slot) {
  const size_t esize = tp_dtype_size(in->dtype);
  if (esize == 0) {
    return TP_ERR_KERNEL_DTYPE;
  }
  uint32_t outer, inner, total = 0;
  tp_dim_blocks(in, dim, &outer, &inner);
  for (uint32_t k = 0; k < n; k++) {
    const tp_tensor *o = outs[k];
    if (o->dtype != in->dtype) {
      return TP_ERR_KERNEL_DTYPE;
    }
    TP_CHECK_ARGS(o->dim == (remove_dim ? in->dim - 1 : in->dim));
    for (uint32_t d = 0, s = 0; d < in->dim; d++) {
      if (d == dim) {
        if (!remove_dim) {
          total += (uint32_t)o->sizes[s++];
        } else {
          total += 1;
        }
        continue;
      }
      TP_CHECK_ARGS(o->sizes[s++] == in->sizes[d]);
    }
  }
  TP_CHECK_ARGS(total == (uint32_t)in->sizes[dim]);
  st->outer = outer;
  st->unit = inner * (uint32_t)esize;
  st->row = (uint32_t)in->sizes[dim] * st->unit;
  st->list = list_slot;
  return TP_OK;
}

/* Copy each piece of self (args[0]) into its out tensor. */
static inline tp_status tp_split_run(const tp_kernel_call *call) {
  const tp_split_state *st = call->state;
  const uint8_t *x = (const uint8_t *)call->args[0]->as.tensor->data;
  tp_tensor *const *outs = call->args[st->list]->as.tensor_list.items;
  const uint32_t n = call->args[st->list]->as.tensor_list.len;
  uint32_t start = 0; /* bytes into each row */
  for (uint32_t k = 0; k < n; k++) {
    const uint32_t bytes = st->outer == 0 ? 0u : (uint32_t)outs[k]->nbytes / st->outer;
    uint8_t *o = (uint8_t *)outs[k]->data;
    for (uint32_t i = 0; i < st->outer; i++) {
      memmove(o + (size_t)i * bytes, x + (size_t)i * st->row + start, bytes);
    }
    start += bytes;
  }
  return TP_OK;
}

#endif /* TINYPTE_KERNELS_ENGINES_SPLIT_H */
