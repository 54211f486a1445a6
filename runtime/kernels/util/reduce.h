/* Reductions over a set of dimensions: the plan prepare computes (which input elements feed
 * each out element), the arguments of mean/sum, and the loop run walks. */
#ifndef TINYPTE_KERNELS_UTIL_REDUCE_H
#define TINYPTE_KERNELS_UTIL_REDUCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tinypte/kernel.h"

#include "util/shape.h"

/* A reduction over a set of dimensions (sum/mean/argmax-style): which input elements feed each
 * out element. Size-1 dimensions are dropped and adjacent dimensions merged, so iterating is
 * cheap; the reduced elements of one output are visited in increasing input offset (row-major)
 * order, and outputs in row-major order of the kept dimensions. */
typedef struct tp_reduce_plan {
  uint32_t out_dim;                  /* the out tensor's expected shape */
  int32_t out_sizes[TP_MAX_DIM];
  uint32_t out_numel;
  uint32_t kept_dim;                 /* kept (non-reduced) dimensions, coalesced */
  uint32_t kept_sizes[TP_MAX_DIM];
  uint32_t kept_strides[TP_MAX_DIM]; /* input element strides */
  uint32_t red_dim;                  /* reduced dimensions, coalesced */
  uint32_t red_sizes[TP_MAX_DIM];
  uint32_t red_strides[TP_MAX_DIM];
  uint32_t red_numel;                /* input elements per output (0 when a reduced dim is empty) */
} tp_reduce_plan;

/** Plan a reduction of `in` over `dims[0..ndims)` (negative dims allowed; duplicates rejected);
 *  `dims` NULL or ndims 0 reduces every dimension (ATen's dim=None and dim=[]). keepdim keeps
 *  reduced dimensions as size 1. A 0-dim input gives a 0-dim output. */
tp_status tp_reduce_plan_init(tp_reduce_plan *plan, const tp_tensor *in, const int64_t *dims, uint32_t ndims,
                              bool keepdim);

/* The arguments of mean.out and sum.IntList_out, which share one schema:
 * (Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out). */
typedef struct tp_dim_reduction_args {
  tp_tensor *in;
  tp_tensor *out;
  const int64_t *dims; /* NULL for None */
  uint32_t ndims;
  bool keepdim;
  bool has_dtype;
  int64_t dtype; /* when has_dtype */
} tp_dim_reduction_args;

/** Read those arguments (args[5] is the returned out). */
tp_status tp_dim_reduction_args_get(tp_value *const *args, uint32_t nargs, tp_dim_reduction_args *a);

/** Plan the reduction they describe and check that out has the reduced shape. */
tp_status tp_dim_reduction_plan(const tp_dim_reduction_args *a, tp_reduce_plan *plan);

/* A tp_reduce_plan as run iterates it, in the plan's order: for each of `out_numel` outputs
 * (the kept dimensions, row-major), `red_rows` rows of `red_len` input elements `red_step`
 * apart, the rows walking the outer reduced dimensions. */
typedef struct tp_reduce_loop {
  uint32_t out_numel;          /* outputs */
  uint32_t red_numel;          /* input elements per output (0 when a reduced dim is empty) */
  uint32_t red_rows;           /* rows per output (0 when red_numel is) */
  uint32_t red_len;            /* the innermost reduced dimension: its size (1 when none) */
  uint32_t red_step;           /* and input element stride */
  uint8_t kept_dim;            /* kept dims: sizes/strides [0, kept_dim) */
  uint8_t red_dim;             /* outer reduced dims: sizes/strides [kept_dim, kept_dim + red_dim) */
  uint32_t sizes[TP_MAX_DIM];
  uint32_t strides[TP_MAX_DIM]; /* input element strides */
} tp_reduce_loop;

/** The loop of `plan`. */
void tp_reduce_loop_init(tp_reduce_loop *loop, const tp_reduce_plan *plan);

/* Iterate a tp_reduce_loop: with `koff` the input offset of the current output's first
 * element, `roff` that of the current row (relative to koff). Both are back to 0 after a
 * full cycle, so one position serves every output. */
typedef struct tp_reduce_pos {
  uint32_t kept_index[TP_MAX_DIM];
  uint32_t red_index[TP_MAX_DIM];
  uint32_t koff;
  uint32_t roff;
} tp_reduce_pos;

/** The position of the first row of the first output. */
static inline void tp_reduce_pos_start(tp_reduce_pos *pos) {
  for (uint32_t d = 0; d < TP_MAX_DIM; d++) {
    pos->kept_index[d] = 0;
    pos->red_index[d] = 0;
  }
  pos->koff = 0;
  pos->roff = 0;
}

/** Move to the next row of the current output (after the last, back to its first). */
static inline void tp_reduce_next_row(const tp_reduce_loop *l, tp_reduce_pos *pos) {
  pos->roff = tp_index_next(l->red_dim, l->sizes + l->kept_dim, l->strides + l->kept_dim, pos->red_index, pos->roff);
}

/** Move to the next output. */
static inline void tp_reduce_next_out(const tp_reduce_loop *l, tp_reduce_pos *pos) {
  pos->koff = tp_index_next(l->kept_dim, l->sizes, l->strides, pos->kept_index, pos->koff);
}

#endif /* TINYPTE_KERNELS_UTIL_REDUCE_H */
