/* Shape checks and views (see shape.h). */
#include "kernel_util.h"

bool tp_same_shape(const tp_tensor *a, const tp_tensor *b) {
  if (a->dim != b->dim) {
    return false;
  }
  for (uint32_t d = 0; d < a->dim; d++) {
    if (a->sizes[d] != b->sizes[d]) {
      return false;
    }
  }
  return true;
}

tp_status tp_normalize_dim(int64_t d, uint32_t dim, uint32_t *out) {
  int64_t extent = dim == 0 ? 1 : (int64_t)dim;
  if (d < -extent || d >= extent) {
    return TP_ERR_KERNEL_ARGS;
  }
  *out = (uint32_t)(d < 0 ? d + extent : d);
  return TP_OK;
}

bool tp_shape_is(const tp_tensor *t, uint32_t dim, const int32_t *sizes) {
  if (t->dim != dim) {
    return false;
  }
  for (uint32_t d = 0; d < dim; d++) {
    if (t->sizes[d] != sizes[d]) {
      return false;
    }
  }
  return true;
}

tp_status tp_permutation(const tp_tensor *in, const int64_t *dims, uint32_t len, int32_t *sizes, uint32_t *strides) {
  TP_CHECK_ARGS(len == in->dim && len <= TP_MAX_DIM);
  uint32_t in_strides[TP_MAX_DIM];
  uint32_t stride = 1;
  for (uint32_t d = in->dim; d-- > 0;) {
    in_strides[d] = stride;
    stride *= (uint32_t)in->sizes[d];
  }
  bool seen[TP_MAX_DIM] = {false};
  for (uint32_t k = 0; k < len; k++) {
    uint32_t d;
    TP_TRY(tp_normalize_dim(dims[k], in->dim, &d));
    TP_CHECK_ARGS(!seen[d]); /* a permutation: each dim once */
    seen[d] = true;
    sizes[k] = in->sizes[d];
    strides[k] = in_strides[d];
  }
  return TP_OK;
}

void tp_tensor_strides(const tp_tensor *t, int32_t strides[TP_MAX_DIM]) {
  const uint32_t dim = t->dim;
  int32_t step = 1;
  if (!t->channels_last) {
    for (uint32_t d = dim; d-- > 0;) {
      strides[d] = step;
      step *= t->sizes[d];
    }
    return;
  }
  /* Memory order N, the spatial dims in order, C: C innermost, then the last spatial dim. */
  strides[1] = step;
  step *= t->sizes[1];
  for (uint32_t d = dim; d-- > 2;) {
    strides[d] = step;
    step *= t->sizes[d];
  }
  strides[0] = step;
}

tp_status tp_in_out_channels_last(const tp_kernel_call *call, bool *channels_last) {
  const tp_tensor *in = call->args[0]->as.tensor, *out = call->args[call->nargs - 2]->as.tensor;
  const bool last = in->channels_last || out->channels_last;
  if ((in->channels_last != last && !tp_tensor_order_free(in)) ||
      (out->channels_last != last && !tp_tensor_order_free(out))) {
    return TP_ERR_DIM_ORDER;
  }
  *channels_last = last;
  return TP_OK;
}
