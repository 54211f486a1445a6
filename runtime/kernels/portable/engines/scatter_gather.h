/* The shared plan of gather, scatter and scatter_add: iterate over index's elements (index has
 * as many dimensions as self; its sizes bound self's except along dim) and find, for each, the
 * element of self (or out) along `dim` that the index value names, and the element at the same
 * coordinates in src. Index values are data: run checks them (TP_ERR_INDEX_RANGE). */
#ifndef TINYPTE_KERNELS_ENGINES_SCATTER_GATHER_H
#define TINYPTE_KERNELS_ENGINES_SCATTER_GATHER_H

#include <string.h>

#include "util/elem.h"
#include "kernel_util.h"

/* gather.out(Tensor self, int dim, Tensor index, *, bool sparse_grad=False, Tensor(a!) out),
 * scatter.src_out(Tensor self, int dim, Tensor index, Tensor src, *, Tensor(a!) out),
 * scatter.value_out(Tensor self, int dim, Tensor index, Scalar value, *, Tensor(a!) out) and
 * scatter_add.out(Tensor self, int dim, Tensor index, Tensor src, *, Tensor(a!) out) -> Tensor(a!):
 * one layout of args, self, dim, index, the fourth (sparse_grad, src or value), out, out. */
enum { TP_DIM_INDEX_SELF, TP_DIM_INDEX_DIM, TP_DIM_INDEX_INDEX, TP_DIM_INDEX_FOURTH, TP_DIM_INDEX_OUT };

typedef struct tp_dim_index_plan {
  uint32_t dim;                       /* index's (and self's) dimensions */
  uint32_t axis;                      /* the dimension the index values select along */
  uint32_t sizes[TP_MAX_DIM];         /* index's sizes */
  uint32_t self_strides[TP_MAX_DIM];  /* self's (and out's) element strides */
  uint32_t src_strides[TP_MAX_DIM];   /* src's element strides (scatter's src, gather's out) */
  uint32_t axis_size;                 /* self's size along axis */
  uint32_t numel;                     /* index's elements */
  uint8_t index_dtype;                /* int64 or int32 */
} tp_dim_index_plan;

/** The arguments the three kernels share: self and out (tp_elementwise_args), dim and index. */
static inline tp_status tp_dim_index_args(const tp_kernel_call *call, tp_tensor **self, int64_t *dim, tp_tensor **index,
                                          tp_tensor **out) {
  TP_TRY(tp_elementwise_args(call, TP_DIM_INDEX_OUT, self, out));
  TP_TRY(tp_arg_int(call->args, call->nargs, TP_DIM_INDEX_DIM, dim));
  return tp_arg_tensor(call->args, call->nargs, TP_DIM_INDEX_INDEX, index);
}

/** Check self, dim and index (int64 or int32, same number of dimensions, sizes <= self's except
 *  along dim; `src` NULL or at least index's sizes) and plan. */
static inline tp_status tp_dim_index_plan_init(tp_dim_index_plan *p, const tp_tensor *self, int64_t dim_arg,
                                               const tp_tensor *index, const tp_tensor *src) {
  if (index->dtype != TP_DTYPE_INT64 && index->dtype != TP_DTYPE_INT32) {
    return TP_ERR_KERNEL_DTYPE;
  }
  const uint32_t dim = self->dim > 0 ? self->dim : 1u;
  TP_CHECK_ARGS(index->dim == self->dim && (src == 0 || src->dim == self->dim));
  TP_TRY(tp_normalize_dim(dim_arg, self->dim, &p->axis));
  p->dim = dim;
  p->numel = index->numel;
  p->index_dtype = (uint8_t)index->dtype;
  uint32_t s = 1, t = 1;
  for (uint32_t d = dim; d-- > 0;) {
    const uint32_t self_size = (uint32_t)tp_size(self, d);
    const uint32_t size = (uint32_t)tp_size(index, d);
    TP_CHECK_ARGS(d == p->axis || size <= self_size);
    TP_CHECK_ARGS(src == 0 || size <= (uint32_t)tp_size(src, d));
    p->sizes[d] = size;
    p->self_strides[d] = s;
    p->src_strides[d] = t;
    s *= self_size;
    t *= src != 0 ? (uint32_t)tp_size(src, d) : 1u;
  }
  p->axis_size = (uint32_t)tp_size(self, p->axis);
  return TP_OK;
}

/* The walk over index's elements: index i's coordinates, and the offsets of its element in self
 * (without the axis coordinate) and in src. */
typedef struct tp_dim_index_pos {
  uint32_t coord[TP_MAX_DIM];
  uint32_t self_off, src_off;
} tp_dim_index_pos;

/** Self's element for index element i at pos (its value checked against the axis size, negative
 *  values counting from the end); TP_ERR_INDEX_RANGE when out of range. */
static inline tp_status tp_dim_index_target(const tp_dim_index_plan *p, const void *index, uint32_t i,
                                            const tp_dim_index_pos *pos, uint32_t *self_elem) {
  int64_t v = tp_elem_load_i64(index, p->index_dtype, i);
  if (v < 0) {
    v += p->axis_size;
  }
  if (v < 0 || v >= (int64_t)p->axis_size) {
    return TP_ERR_INDEX_RANGE;
  }
  *self_elem = pos->self_off + (uint32_t)v * p->self_strides[p->axis];
  return TP_OK;
}

/** Move to the next index element. */
static inline void tp_dim_index_next(const tp_dim_index_plan *p, tp_dim_index_pos *pos) {
  for (uint32_t d = p->dim; d-- > 0;) {
    const uint32_t self_step = d == p->axis ? 0u : p->self_strides[d];
    pos->self_off += self_step;
    pos->src_off += p->src_strides[d];
    if (++pos->coord[d] < p->sizes[d]) {
      return;
    }
    pos->self_off -= self_step * p->sizes[d];
    pos->src_off -= p->src_strides[d] * p->sizes[d];
    pos->coord[d] = 0;
  }
}

/** out = self, unless they are one tensor: where scatter and scatter_add start. */
static inline void tp_scatter_start(const tp_tensor *self, void *out) {
  if (out != self->data) {
    memmove(out, self->data, self->nbytes);
  }
}

/* The tensors of a walk: gather reads `in` (self), scatter and scatter_add read it as src (NULL:
 * scatter's value, `value`); all write `out`, elements of `esize` bytes and dtype `dtype`. */
typedef struct tp_dim_index_io {
  const uint8_t *in;
  uint8_t *out;
  const uint8_t *value;
  uint32_t esize;
  uint8_t dtype;
} tp_dim_index_io;

/* What gather, scatter or scatter_add do with an index element: `at` is the element of self (or
 * out) its value names, `src_off` src's element at its coordinates (gather plans with out as its
 * src: out has index's shape, so that is out's element for the index element). */
typedef void (*tp_dim_index_visit_fn)(const tp_dim_index_io *io, uint32_t at, uint32_t src_off);

/** Visit index's elements in order; TP_ERR_INDEX_RANGE at the first value out of range (the
 *  elements before it visited). */
static inline tp_status tp_dim_index_each(const tp_dim_index_plan *p, const void *index, tp_dim_index_visit_fn visit,
                                          const tp_dim_index_io *io) {
  tp_dim_index_pos pos = {{0}, 0, 0};
  for (uint32_t i = 0; i < p->numel; i++) {
    uint32_t at;
    TP_TRY(tp_dim_index_target(p, index, i, &pos, &at));
    visit(io, at, pos.src_off);
    tp_dim_index_next(p, &pos);
  }
  return TP_OK;
}

#endif /* TINYPTE_KERNELS_ENGINES_SCATTER_GATHER_H */
