/* aten::cat.out: concatenate tensors along dim (negative allowed); any dtype, all equal. As ATen,
 * 1-D empty tensors (shape [0]) are skipped; the others must match except along dim. */
#include <string.h>

#include "kernel_util.h"

static bool skipped(const tp_tensor *t) { return t->dim == 1 && t->sizes[0] == 0; }

/* cat.out(Tensor[] tensors, int dim=0, *, Tensor(a!) out) -> Tensor(a!) */
TP_KERNEL_LEGACY(aten, cat, out) {
  TP_CHECK_ARGS(nargs == 4);
  tp_tensor *const *tensors;
  uint32_t count;
  int64_t dim_arg;
  tp_tensor *out, *ret;
  TP_TRY(tp_arg_tensor_list(args, nargs, 0, &tensors, &count));
  TP_TRY(tp_arg_int(args, nargs, 1, &dim_arg));
  TP_TRY(tp_arg_tensor(args, nargs, 2, &out));
  TP_TRY(tp_arg_tensor(args, nargs, 3, &ret));
  TP_CHECK_ARGS(count > 0 && (tensors != NULL));
  const size_t esize = tp_dtype_size(out->dtype);
  if (esize == 0) {
    return TP_ERR_KERNEL_DTYPE;
  }
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
  if (ref == NULL) { /* only empty tensors: the result is empty too */
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
    return TP_OK;
  }
  size_t outer = 1;
  size_t inner = esize;
  for (uint32_t d = 0; d < dim; d++) {
    outer *= (size_t)sizes[d];
  }
  for (uint32_t d = dim + 1; d < ref->dim; d++) {
    inner *= (size_t)sizes[d];
  }
  uint8_t *o = (uint8_t *)out->data;
  for (size_t k = 0; k < outer; k++) {
    for (uint32_t i = 0; i < count; i++) {
      const tp_tensor *t = tensors[i];
      if (skipped(t)) {
        continue;
      }
      const size_t chunk = (size_t)t->sizes[dim] * inner;
      if (chunk > 0) {
        memmove(o, (const uint8_t *)t->data + k * chunk, chunk); /* memmove: a hostile plan may overlap them */
        o += chunk;
      }
    }
  }
  return TP_OK;
}
