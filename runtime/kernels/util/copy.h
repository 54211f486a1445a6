/* Copies planned in prepare: whole-tensor copies and strided gather copies. */
#ifndef TINYPTE_KERNELS_UTIL_COPY_H
#define TINYPTE_KERNELS_UTIL_COPY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tinypte/kernel.h"

/* Plans that prepare computes from the (static) shapes and keeps in a kernel's state, so that
 * run only moves data. The copy and gather routines read self at args[0] and write the out at
 * the argument slot their state names. */

/* A byte copy of a whole contiguous tensor into an out of the same bytes (clone, view_copy,
 * squeeze_copy, unsqueeze_copy, _clone_dim_order): a kernel whose state is a tp_copy_state
 * sets its fields and runs tp_copy_run. */
typedef struct tp_copy_state {
  uint32_t nbytes; /* bytes to copy (out's, equal to self's; 0: nothing) */
  uint32_t out;    /* argument slot of out */
} tp_copy_state;

/** Copy self into out (memmove; nothing when they are the same memory). */
tp_status tp_copy_run(const tp_kernel_call *call);

/* A gather copy of a strided view of self into the contiguous out (permute_copy, expand_copy):
 * size-1 dimensions dropped and adjacent contiguous ones merged, then `rows` rows of `len`
 * elements `step` apart, the rows walking the outer dimensions. */
typedef struct tp_gather_state {
  uint32_t rows;                        /* rows to copy (0: the view is empty) */
  uint32_t len;                         /* elements per row */
  uint32_t step;                        /* self elements between a row's elements */
  uint32_t esize;                       /* bytes per element */
  uint32_t base;                        /* self element where the view starts (0 unless a kernel sets it) */
  uint32_t out;                         /* argument slot of out */
  uint32_t dim;                         /* merged dimensions above the row */
  uint32_t sizes[TP_MAX_DIM - 1];       /* their sizes */
  uint32_t strides[TP_MAX_DIM - 1];     /* and self element strides (0: broadcast) */
} tp_gather_state;

/** Plan copying the view of `dim` (<= TP_MAX_DIM) dimensions of `sizes` whose element
 *  (i0, i1, ...) is self's element sum(i_d * src_strides[d]) into out (argument slot `out`), for
 *  elements of `esize` bytes; sets *run to the routine for that element size (rows of
 *  contiguous elements are moved whole). self and out must not overlap. The view starts at self's
 *  first element: a kernel whose view starts later (slice_copy) sets g->base after planning. */
void tp_gather_plan(tp_gather_state *g, uint32_t dim, const int32_t *sizes, const uint32_t *src_strides,
                    size_t esize, uint32_t out, tp_kernel_run_fn *run);

/** The arguments of a copy of self's view along one dimension (narrow_copy, select_copy):
 *  (Tensor self, int dim, SymInt pos, ..., *, Tensor(a!) out) -> Tensor(a!), with out at slot
 *  `out_index` and again at out_index + 1, the last argument. self is at least 1-D and out has its
 *  dtype, one with an element size (*esize; else TP_ERR_KERNEL_DTYPE); *dim is `dim` normalized
 *  and *pos is `pos` with a negative value counted from the end of that dimension (the caller
 *  checks its range). */
tp_status tp_dim_view_args(const tp_kernel_call *call, uint32_t out_index, tp_tensor **self, tp_tensor **out,
                           uint32_t *dim, int64_t *pos, size_t *esize);

#endif /* TINYPTE_KERNELS_UTIL_COPY_H */
