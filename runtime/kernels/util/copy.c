/* Whole-tensor copies and strided gather copies (see copy.h). */
#include "kernel_util.h"

#include <string.h>

tp_status tp_copy_run(const tp_kernel_call *call) {
  const tp_copy_state *st = call->state;
  const void *x = call->args[0]->as.tensor->data;
  void *o = call->args[st->out]->as.tensor->data;
  if (st->nbytes > 0 && o != x) {
    memmove(o, x, st->nbytes);
  }
  return TP_OK;
}

/* The gather routines: rows of contiguous elements are moved whole, other rows element by
 * element (E bytes each). */
static tp_status gather_rows(const tp_kernel_call *call) {
  const tp_gather_state *g = call->state;
  const uint8_t *s = (const uint8_t *)call->args[0]->as.tensor->data + (size_t)g->base * g->esize;
  uint8_t *o = (uint8_t *)call->args[g->out]->as.tensor->data;
  const size_t row_bytes = (size_t)g->len * g->esize;
  uint32_t index[TP_MAX_DIM] = {0};
  uint32_t off = 0;
  for (uint32_t r = 0; r < g->rows; r++) {
    memmove(o, s + (size_t)off * g->esize, row_bytes);
    o += row_bytes;
    off = tp_index_next(g->dim, g->sizes, g->strides, index, off);
  }
  return TP_OK;
}

#define TP_GATHER_ELEMENTS(NAME, E)                                             \
  static tp_status NAME(const tp_kernel_call *call) {                           \
    const tp_gather_state *g = call->state;                                     \
    const size_t esize = (E) ? (size_t)(E) : g->esize;                          \
    const uint8_t *s = (const uint8_t *)call->args[0]->as.tensor->data +        \
                       (size_t)g->base * esize;                                 \
    uint8_t *o = (uint8_t *)call->args[g->out]->as.tensor->data;                \
    uint32_t index[TP_MAX_DIM] = {0};                                           \
    uint32_t off = 0;                                                           \
    for (uint32_t r = 0; r < g->rows; r++) {                                    \
      const uint8_t *row = s + (size_t)off * esize;                             \
      for (uint32_t j = 0; j < g->len; j++) {                                   \
        memcpy(o + (size_t)j * esize, row + (size_t)j * g->step * esize, esize); \
      }                                                                         \
      o += (size_t)g->len * esize;                                              \
      off = tp_index_next(g->dim, g->sizes, g->strides, index, off);            \
    }                                                                           \
    return TP_OK;                                                               \
  }

/* A 2-D transpose of bytes with short rows (NCHW -> NHWC of a few channels): out[r][j] =
 * self[r + j * step] for r < sizes[0] (self stride 1), j < len. Rows of len bytes would take a
 * row step each; column by column, the reads are contiguous and each byte is two accesses. */
static tp_status transpose_1(const tp_kernel_call *call) {
  const tp_gather_state *g = call->state;
  const uint8_t *s = (const uint8_t *)call->args[0]->as.tensor->data + g->base;
  uint8_t *o = (uint8_t *)call->args[g->out]->as.tensor->data;
  const uint32_t rows = g->sizes[0], len = g->len, step = g->step;
  for (uint32_t j = 0; j < len; j++) {
    const uint8_t *src = s + (size_t)j * step;
    uint8_t *dst = o + j;
    for (uint32_t r = 0; r < rows; r++, dst += len) {
      *dst = src[r];
    }
  }
  return TP_OK;
}

TP_GATHER_ELEMENTS(gather_1, 1)
TP_GATHER_ELEMENTS(gather_2, 2)
TP_GATHER_ELEMENTS(gather_4, 4)
TP_GATHER_ELEMENTS(gather_8, 8)
TP_GATHER_ELEMENTS(gather_any, 0)

void tp_gather_plan(tp_gather_state *g, uint32_t dim, const int32_t *sizes, const uint32_t *src_strides,
                    size_t esize, uint32_t out, tp_kernel_run_fn *run) {
  uint32_t n = 0;
  uint32_t sz[TP_MAX_DIM];
  uint32_t st[TP_MAX_DIM];
  uint32_t numel = 1;
  for (uint32_t d = 0; d < dim && d < TP_MAX_DIM; d++) {
    const uint32_t size = (uint32_t)sizes[d];
    numel *= size;
    if (size == 1) {
      continue;
    }
    if (n > 0 && st[n - 1] == src_strides[d] * size) {
      sz[n - 1] *= size;
      st[n - 1] = src_strides[d];
    } else {
      sz[n] = size;
      st[n] = src_strides[d];
      n++;
    }
  }
  if (n == 0) { /* one element (or none) */
    sz[0] = 1;
    st[0] = 1;
    n = 1;
  }
  g->len = sz[n - 1];
  g->step = st[n - 1];
  g->rows = numel == 0 ? 0 : numel / g->len;
  g->esize = (uint32_t)esize;
  g->base = 0;
  g->out = out;
  g->dim = n - 1;
  for (uint32_t d = 0; d + 1 < n; d++) {
    g->sizes[d] = sz[d];
    g->strides[d] = st[d];
  }
  if (g->step == 1) {
    *run = gather_rows;
    return;
  }
  switch (esize) {
    case 1:
      /* One dimension above short rows, read with stride 1: column by column. */
      *run = g->dim == 1 && g->strides[0] == 1 && g->len <= 8 ? transpose_1 : gather_1;
      break;
    case 2:
      *run = gather_2;
      break;
    case 4:
      *run = gather_4;
      break;
    case 8:
      *run = gather_8;
      break;
    default:
      *run = gather_any;
      break;
  }
}

tp_status tp_dim_view_args(const tp_kernel_call *call, uint32_t out_index, tp_tensor **self, tp_tensor **out,
                           uint32_t *dim, int64_t *pos, size_t *esize) {
  tp_tensor *ret;
  int64_t dim_arg;
  TP_CHECK_ARGS(call->nargs == out_index + 2);
  TP_TRY(tp_arg_tensor(call->args, call->nargs, 0, self));
  TP_TRY(tp_arg_int(call->args, call->nargs, 1, &dim_arg));
  TP_TRY(tp_arg_int(call->args, call->nargs, 2, pos));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, out_index, out));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, out_index + 1, &ret));
  *esize = tp_dtype_size((*self)->dtype);
  if ((*self)->dtype != (*out)->dtype || *esize == 0) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS((*self)->dim > 0);
  TP_TRY(tp_normalize_dim(dim_arg, (*self)->dim, dim));
  if (*pos < 0) {
    *pos += (*self)->sizes[*dim];
  }
  return TP_OK;
}
