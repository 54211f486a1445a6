/* aten::index_select.out: self's slices along dim at the positions a 1-D (or 0-D) index lists,
 * in that order; any dtype. Viewed as (outer, size along dim, inner), each out row copies one
 * inner block per listed position. Positions outside the dimension fail the run with
 * TP_ERR_INDEX_RANGE (negative ones count from the end). */
#include <string.h>

#include "util/elem.h"
#include "kernel_util.h"

typedef struct index_select_state {
  uint32_t outer, size, block; /* block: bytes of one position's inner elements */
  uint32_t count;              /* positions listed */
  uint8_t index_dtype;
} index_select_state;

/* index_select.out(Tensor self, int dim, Tensor index, *, Tensor(a!) out) -> Tensor(a!): args self, dim,
 * index, out, out. */
enum { INDEX_SELECT_SELF, INDEX_SELECT_DIM, INDEX_SELECT_INDEX, INDEX_SELECT_OUT };

static tp_status index_select_run(const tp_kernel_call *call) {
  const index_select_state *st = call->state;
  const uint8_t *x = (const uint8_t *)call->args[INDEX_SELECT_SELF]->as.tensor->data;
  const void *index = call->args[INDEX_SELECT_INDEX]->as.tensor->data;
  uint8_t *o = (uint8_t *)call->args[INDEX_SELECT_OUT]->as.tensor->data;
  for (uint32_t a = 0; a < st->outer; a++) {
    for (uint32_t k = 0; k < st->count; k++) {
      int64_t v = tp_elem_load_i64(index, st->index_dtype, k);
      if (v < 0) {
        v += st->size;
      }
      if (v < 0 || v >= (int64_t)st->size) {
        return TP_ERR_INDEX_RANGE;
      }
      memmove(o, x + ((size_t)a * st->size + (size_t)v) * st->block, st->block);
      o += st->block;
    }
  }
  return TP_OK;
}

TP_KERNEL(aten, index_select, out, index_select_state) {
  tp_tensor *self, *index, *out;
  int64_t dim_arg;
  uint32_t dim;
  TP_TRY(tp_elementwise_args(call, INDEX_SELECT_OUT, &self, &out));
  TP_TRY(tp_arg_int(call->args, call->nargs, INDEX_SELECT_DIM, &dim_arg));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, INDEX_SELECT_INDEX, &index));
  const size_t esize = tp_dtype_size(self->dtype);
  if (esize == 0 || self->dtype != out->dtype ||
      (index->dtype != TP_DTYPE_INT64 && index->dtype != TP_DTYPE_INT32)) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(index->dim <= 1);
  TP_TRY(tp_normalize_dim(dim_arg, self->dim, &dim));
  int32_t sizes[TP_MAX_DIM];
  uint32_t outer, inner;
  for (uint32_t d = 0; d < self->dim; d++) {
    sizes[d] = d == dim ? (int32_t)index->numel : self->sizes[d];
  }
  tp_dim_blocks(self, dim, &outer, &inner);
  TP_CHECK_ARGS(tp_shape_is(out, self->dim, sizes) || (self->dim == 0 && out->numel == index->numel));
  state->outer = outer;
  state->size = (uint32_t)tp_size(self, dim);
  state->block = inner * (uint32_t)esize;
  state->count = index->numel;
  state->index_dtype = (uint8_t)index->dtype;
  *run = index_select_run;
  return TP_OK;
}
