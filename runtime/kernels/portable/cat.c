/* aten::cat.out: concatenate tensors along dim (negative allowed); any dtype, all equal. As ATen,
 * 1-D empty tensors (shape [0]) are skipped; the others must match except along dim.
 * prepare checks the shapes and keeps the block sizes; run copies, for each of `outer` blocks,
 * every input's chunk in turn. The inputs are a list of any length, so run takes each one's
 * size along dim from the tensor itself (shapes never change after init). */
#include <string.h>

#include "kernel_util.h"

typedef struct cat_state {
  uint32_t outer; /* blocks: the product of the out sizes before dim (0: nothing to copy) */
  uint32_t inner; /* bytes per unit of size along dim: element size * out sizes after dim */
  uint32_t dim;   /* the (normalized) dim */
  uint32_t ndim;  /* dimensions of the inputs that are not skipped */
} cat_state;

/* cat.out(Tensor[] tensors, int dim=0, *, Tensor(a!) out) -> Tensor(a!): args tensors, dim, out, out. */
enum { CAT_TENSORS, CAT_DIM, CAT_OUT, CAT_NARGS = 4 };

static bool skipped(const tp_tensor *t) { return t->dim == 1 && t->sizes[0] == 0; }

static tp_status cat_run(const tp_kernel_call *call) {
  const cat_state *st = call->state;
  tp_tensor *const *tensors = call->args[CAT_TENSORS]->as.tensor_list.items;
  const uint32_t count = call->args[CAT_TENSORS]->as.tensor_list.len;
  uint8_t *o = (uint8_t *)call->args[CAT_OUT]->as.tensor->data;
  for (uint32_t k = 0; k < st->outer; k++) {
    for (uint32_t i = 0; i < count; i++) {
      const tp_tensor *t = tensors[i];
      /* A skipped tensor (1-D, empty) has another dim count or size 0 along dim. */
      const size_t chunk = t->dim == st->ndim ? (size_t)t->sizes[st->dim] * st->inner : 0;
      if (chunk > 0) {
        memmove(o, (const uint8_t *)t->data + k * chunk, chunk); /* memmove: a hostile plan may overlap them */
        o += chunk;
      }
    }
  }
  return TP_OK;
}

TP_KERNEL(aten, cat, out, cat_state) {
  TP_CHECK_ARGS(nargs == CAT_NARGS);
  tp_tensor *const *tensors;
  uint32_t count;
  int64_t dim_arg;
  tp_tensor *out, *ret;
  TP_TRY(tp_arg_tensor_list(args, nargs, CAT_TENSORS, &tensors, &count));
  TP_TRY(tp_arg_int(args, nargs, CAT_DIM, &dim_arg));
  TP_TRY(tp_arg_tensor(args, nargs, CAT_OUT, &out));
  TP_TRY(tp_arg_tensor(args, nargs, CAT_OUT + 1, &ret));
  TP_CHECK_ARGS(count > 0 && (tensors != NULL));
  const size_t esize = tp_dtype_size(out->dtype);
  if (esize == 0) {
    return TP_ERR_KERNEL_DTYPE;
  }
  *run = cat_run;
  const tp_tensor *ref = NULL;
  for (uint32_t i = 0; i < count; i++) {
    TP_CHECK_ARGS(tensors[i] != NULL);
    if (!skipped(tensors[i])) {
      if (tensors[i]->dtype != out->dtype) {
        return TP_ERR_KERNEL_DTYPE;
      }
      if (ref == NULL) {
        ref = tensors[i];
      }
    }
  }
  if (ref == NULL) { /* only empty tensors: the result is empty too (outer stays 0) */
    TP_CHECK_ARGS(out->numel == 0);
    return TP_OK;
  }
  TP_CHECK_ARGS(ref->dim > 0 && ref->dim <= TP_MAX_DIM); /* 0-dim tensors cannot be concatenated */
  uint32_t dim;
  TP_TRY(tp_normalize_dim(dim_arg, ref->dim, &dim));
  int32_t sizes[TP_MAX_DIM];
  for (uint32_t d = 0; d < ref->dim; d++) {
    sizes[d] = d == dim ? 0 : ref->sizes[d];
  }
  for (uint32_t i = 0; i < count; i++) {
    const tp_tensor *t = tensors[i];
    if (skipped(t)) {
      continue;
    }
    TP_CHECK_ARGS(t->dim == ref->dim);
    for (uint32_t d = 0; d < ref->dim; d++) {
      TP_CHECK_ARGS(d == dim || t->sizes[d] == ref->sizes[d]);
    }
    TP_CHECK_ARGS((int64_t)sizes[dim] + t->sizes[dim] <= INT32_MAX);
    sizes[dim] += t->sizes[dim];
  }
  TP_CHECK_ARGS(tp_shape_is(out, ref->dim, sizes));
  if (out->numel == 0) {
    return TP_OK; /* outer stays 0 */
  }
  uint32_t outer = 1;
  uint32_t inner = (uint32_t)esize;
  for (uint32_t d = 0; d < dim; d++) {
    outer *= (uint32_t)sizes[d];
  }
  for (uint32_t d = dim + 1; d < ref->dim; d++) {
    inner *= (uint32_t)sizes[d];
  }
  state->outer = outer;
  state->inner = inner;
  state->dim = dim;
  state->ndim = ref->dim;
  return TP_OK;
}
