/* The shared run of select_scatter and slice_scatter: out is a copy of self, then src is written
 * into a strided view of out (the selected index, or the slice, along one dimension). */
#ifndef TINYPTE_KERNELS_ENGINES_SCATTER_VIEW_H
#define TINYPTE_KERNELS_ENGINES_SCATTER_VIEW_H

#include <string.h>

#include "kernel_util.h"

typedef struct tp_scatter_view_state {
  uint32_t dim;                  /* the view's dimensions (src's) */
  uint32_t sizes[TP_MAX_DIM];    /* src's sizes */
  uint32_t strides[TP_MAX_DIM];  /* out element strides along them */
  uint32_t base;                 /* out element where the view starts */
  uint32_t numel;                /* src's elements */
  uint32_t esize;
  uint32_t out;                  /* argument slot of out */
} tp_scatter_view_state;

/* out = self (args[0]); then src (args[1]) into the view. */
static inline tp_status tp_scatter_view_run(const tp_kernel_call *call) {
  const tp_scatter_view_state *st = call->state;
  const tp_tensor *self = call->args[0]->as.tensor;
  const uint8_t *src = (const uint8_t *)call->args[1]->as.tensor->data;
  uint8_t *o = (uint8_t *)call->args[st->out]->as.tensor->data;
  if (o != self->data) {
    memmove(o, self->data, self->nbytes);
  }
  uint32_t index[TP_MAX_DIM] = {0};
  uint32_t off = st->base;
  for (uint32_t i = 0; i < st->numel; i++) {
    memmove(o + (size_t)off * st->esize, src + (size_t)i * st->esize, st->esize);
    off = tp_index_next(st->dim, st->sizes, st->strides, index, off);
  }
  return TP_OK;
}

/** Check self, src and out (self's dtype and shape for out, src's dtype) and fill the
 *  dtype-dependent fields; the kernel sets the view (dim, sizes, strides, base). */
static inline tp_status tp_scatter_view_check(tp_scatter_view_state *st, const tp_tensor *self, const tp_tensor *src,
                                              const tp_tensor *out, uint32_t out_slot) {
  const size_t esize = tp_dtype_size(self->dtype);
  if (esize == 0 || src->dtype != self->dtype || out->dtype != self->dtype) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(tp_same_shape(self, out) && self->dim > 0);
  st->esize = (uint32_t)esize;
  st->out = out_slot;
  st->numel = src->numel;
  return TP_OK;
}

#endif /* TINYPTE_KERNELS_ENGINES_SCATTER_VIEW_H */
