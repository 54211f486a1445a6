/* aten::embedding.out: out[i..., :] = weight[indices[i...], :], the lookup of a token embedding
 * table. weight is [num_embeddings, dim] of any dtype; indices int64 or int32 of any shape; out is
 * indices' shape + [dim]. Each lookup is one row copy. An index outside [0, num_embeddings) stops
 * the run with TP_ERR_INDEX_RANGE (index values are data: prepare cannot check them).
 * padding_idx, scale_grad_by_freq and sparse only affect training, as in ExecuTorch. */
#include <string.h>

#include "kernel_util.h"

typedef struct embedding_state {
  uint32_t lookups;   /* elements of indices */
  uint32_t rows;      /* num_embeddings */
  uint32_t row_bytes; /* dim * element size */
} embedding_state;

/* embedding.out(Tensor weight, Tensor indices, SymInt padding_idx=-1, bool scale_grad_by_freq=False,
 * bool sparse=False, *, Tensor(a!) out) -> Tensor(a!): args weight, indices, padding_idx,
 * scale_grad_by_freq, sparse, out, out. */
enum { EMB_WEIGHT, EMB_INDICES, EMB_PADDING, EMB_SCALE, EMB_SPARSE, EMB_OUT, EMB_NARGS = 7 };

#define EMBEDDING_RUN(NAME, INDEX_T)                                                    \
  static tp_status NAME(const tp_kernel_call *call) {                                   \
    const embedding_state *st = call->state;                                            \
    const uint8_t *table = (const uint8_t *)call->args[EMB_WEIGHT]->as.tensor->data;    \
    const INDEX_T *index = (const INDEX_T *)call->args[EMB_INDICES]->as.tensor->data;   \
    uint8_t *o = (uint8_t *)call->args[EMB_OUT]->as.tensor->data;                       \
    for (uint32_t i = 0; i < st->lookups; i++) {                                        \
      const INDEX_T row = index[i];                                                     \
      if (row < 0 || (uint64_t)row >= st->rows) {                                       \
        return TP_ERR_INDEX_RANGE;                                                      \
      }                                                                                 \
      memmove(o + (size_t)i * st->row_bytes, table + (size_t)row * st->row_bytes, st->row_bytes); \
    }                                                                                   \
    return TP_OK;                                                                       \
  }

EMBEDDING_RUN(embedding_i64, int64_t)
EMBEDDING_RUN(embedding_i32, int32_t)

TP_KERNEL(aten, embedding, out, embedding_state) {
  tp_tensor *weight, *indices, *out, *ret;
  TP_CHECK_ARGS(nargs == EMB_NARGS);
  TP_TRY(tp_arg_tensor(args, nargs, EMB_WEIGHT, &weight));
  TP_TRY(tp_arg_tensor(args, nargs, EMB_INDICES, &indices));
  TP_TRY(tp_arg_tensor(args, nargs, EMB_OUT, &out));
  TP_TRY(tp_arg_tensor(args, nargs, EMB_OUT + 1, &ret));
  const size_t esize = tp_dtype_size(weight->dtype);
  if (esize == 0 || out->dtype != weight->dtype) {
    return TP_ERR_KERNEL_DTYPE;
  }
  if (indices->dtype == TP_DTYPE_INT64) {
    *run = embedding_i64;
  } else if (indices->dtype == TP_DTYPE_INT32) {
    *run = embedding_i32;
  } else {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(weight->dim == 2 && indices->dim + 1u <= TP_MAX_DIM);
  int32_t sizes[TP_MAX_DIM];
  for (uint32_t d = 0; d < indices->dim; d++) {
    sizes[d] = indices->sizes[d];
  }
  sizes[indices->dim] = weight->sizes[1];
  TP_CHECK_ARGS(tp_shape_is(out, indices->dim + 1u, sizes));
  state->lookups = indices->numel;
  state->rows = (uint32_t)weight->sizes[0];
  state->row_bytes = (uint32_t)((size_t)weight->sizes[1] * esize);
  return TP_OK;
}
