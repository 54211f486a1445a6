/* Broadcasting helpers (see broadcast.h): ATen broadcast shapes, the two-input row plan (and its
 * packed form, for kernel states). */
#include "util/broadcast.h"


tp_status tp_broadcast_shape(const tp_tensor *a, const tp_tensor *b, uint32_t *dim, int32_t sizes[TP_MAX_DIM]) {
  const uint32_t n = a->dim > b->dim ? a->dim : b->dim;
  TP_CHECK_ARGS(n <= TP_MAX_DIM);
  for (uint32_t k = 0; k < n; k++) { /* k-th dimension from the end */
    const int32_t sa = k < a->dim ? a->sizes[a->dim - 1 - k] : 1;
    const int32_t sb = k < b->dim ? b->sizes[b->dim - 1 - k] : 1;
    TP_CHECK_ARGS(sa >= 0 && sb >= 0);
    int32_t s;
    if (sa == sb || sb == 1) {
      s = sa;
    } else if (sa == 1) {
      s = sb;
    } else {
      return TP_ERR_KERNEL_ARGS;
    }
    sizes[n - 1 - k] = s;
  }
  *dim = n;
  return TP_OK;
}

/* Element strides of t's dimensions seen from an output of `dim` dimensions (aligned at the
 * end), in t's own memory order (tp_tensor_strides): 0 for missing and size-1 dimensions. */
static void broadcast_strides(const tp_tensor *t, uint32_t dim, uint32_t *strides) {
  int32_t own[TP_MAX_DIM];
  tp_tensor_strides(t, own);
  for (uint32_t k = 0; k < dim; k++) {
    const uint32_t d = dim - 1 - k;
    strides[d] = k < t->dim && t->sizes[t->dim - 1 - k] != 1 ? (uint32_t)own[t->dim - 1 - k] : 0u;
  }
}

tp_status tp_bcast_init(tp_bcast *bc, const tp_tensor *a, const tp_tensor *b, tp_tensor *out) {
  uint32_t dim;
  int32_t sizes[TP_MAX_DIM];
  TP_TRY(tp_broadcast_shape(a, b, &dim, sizes));
  TP_TRY(tp_out_shape(out, dim, sizes));

  uint32_t sa[TP_MAX_DIM];
  uint32_t sb[TP_MAX_DIM];
  broadcast_strides(a, dim, sa);
  broadcast_strides(b, dim, sb);

  /* Rows follow out's memory order: dims in order, or for a channels-last out N, the spatial
   * dims, then C (the out is written element after element). */
  uint32_t order[TP_MAX_DIM];
  for (uint32_t i = 0; i < dim; i++) {
    order[i] = !out->channels_last ? i : i == 0 ? 0u : i == dim - 1 ? 1u : i + 1;
  }
  uint32_t numel = 1;
  bc->dim = 0;
  for (uint32_t i = 0; i < dim; i++) {
    const uint32_t d = order[i];
    const uint32_t size = (uint32_t)sizes[d];
    numel *= size;
    if (size == 1) {
      continue;
    }
    const uint32_t n = bc->dim;
    if (n > 0 && bc->strides[0][n - 1] == sa[d] * size && bc->strides[1][n - 1] == sb[d] * size) {
      bc->sizes[n - 1] *= size;
      bc->strides[0][n - 1] = sa[d];
      bc->strides[1][n - 1] = sb[d];
    } else {
      bc->sizes[n] = size;
      bc->strides[0][n] = sa[d];
      bc->strides[1][n] = sb[d];
      bc->dim++;
    }
  }
  if (bc->dim == 0) { /* every dimension is 1: one element */
    bc->dim = 1;
    bc->sizes[0] = 1;
    bc->strides[0][0] = 0;
    bc->strides[1][0] = 0;
  }
  bc->rows = numel == 0 ? 0 : numel / bc->sizes[bc->dim - 1];
  return TP_OK;
}

tp_status tp_bcast_prepare(tp_bcast_packed *packed, const tp_tensor *a, const tp_tensor *b, tp_tensor *out) {
  tp_bcast bc;
  TP_TRY(tp_bcast_init(&bc, a, b, out));
  packed->dim = (uint8_t)bc.dim;
  packed->repeats[0] = 0;
  packed->repeats[1] = 0;
  for (uint32_t d = 0; d < bc.dim; d++) {
    packed->sizes[d] = bc.sizes[d];
    packed->repeats[0] |= (uint8_t)((bc.strides[0][d] == 0 ? 1u : 0u) << d);
    packed->repeats[1] |= (uint8_t)((bc.strides[1][d] == 0 ? 1u : 0u) << d);
  }
  /* The packed form rebuilds strides for inputs laid out in the order the rows go; an input in
   * another dim order than the out (a contiguous [N, C, H, W] added to a channels-last one)
   * would be read wrong: refused. */
  tp_bcast rebuilt;
  tp_bcast_unpack(packed, &rebuilt);
  for (uint32_t d = 0; d < bc.dim; d++) {
    if (rebuilt.strides[0][d] != bc.strides[0][d] || rebuilt.strides[1][d] != bc.strides[1][d]) {
      return TP_ERR_DIM_ORDER;
    }
  }
  return TP_OK;
}

void tp_bcast_unpack(const tp_bcast_packed *packed, tp_bcast *bc) {
  const uint32_t dim = packed->dim;
  uint32_t next[2] = {1, 1}; /* each input's stride for the next dimension out along which it does not repeat */
  uint32_t rows = 1;
  bc->dim = dim;
  for (uint32_t d = dim; d-- > 0;) {
    const uint32_t size = packed->sizes[d];
    bc->sizes[d] = size;
    for (uint32_t k = 0; k < 2; k++) {
      if ((packed->repeats[k] >> d) & 1u) {
        bc->strides[k][d] = 0;
      } else {
        bc->strides[k][d] = next[k];
        next[k] *= size;
      }
    }
    if (d + 1 < dim) {
      rows *= size;
    }
  }
  bc->rows = packed->sizes[dim - 1] == 0 ? 0 : rows; /* tp_bcast_init: 0 for an empty output */
}
