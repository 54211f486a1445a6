/* Advanced-indexing plans (engines/adv_index.h). */
#include "portable/engines/adv_index.h"

tp_status tp_arg_index_list(const tp_kernel_call *call, uint32_t slot, tp_tensor *const **items, uint32_t *n) {
  TP_CHECK_ARGS(slot < call->nargs);
  const tp_value *v = call->args[slot];
  TP_CHECK_ARGS(v->tag == TP_TAG_OPTIONAL_TENSOR_LIST || v->tag == TP_TAG_TENSOR_LIST);
  *items = v->as.tensor_list.items;
  *n = v->as.tensor_list.len;
  return TP_OK;
}

tp_status tp_adv_index_plan_init(tp_adv_index_plan *p, const tp_tensor *self, tp_tensor *const *indices, uint32_t n) {
  TP_CHECK_ARGS(n <= self->dim && n > 0);
  p->self_dim = self->dim;
  tp_contiguous_strides(self, p->self_strides);
  for (uint32_t d = 0; d < self->dim; d++) {
    p->self_sizes[d] = (uint32_t)self->sizes[d];
  }
  /* B: the broadcast shape of the index tensors */
  uint32_t b_dim = 0;
  uint32_t b_sizes[TP_MAX_DIM];
  int first = -1, last = -1;
  p->indexed = 0;
  for (uint32_t d = 0; d < n; d++) {
    const tp_tensor *t = indices[d];
    if (t == 0) {
      continue;
    }
    if (t->dtype != TP_DTYPE_INT64 && t->dtype != TP_DTYPE_INT32) {
      return TP_ERR_KERNEL_DTYPE;
    }
    first = first < 0 ? (int)d : first;
    last = (int)d;
    p->indexed |= (uint8_t)(1u << d);
    p->index_dtype[d] = (uint8_t)t->dtype;
    if (t->dim > b_dim) { /* widen B, aligned at the last dimension */
      const uint32_t grow = t->dim - b_dim;
      for (uint32_t k = b_dim; k-- > 0;) {
        b_sizes[k + grow] = b_sizes[k];
      }
      for (uint32_t k = 0; k < grow; k++) {
        b_sizes[k] = 1;
      }
      b_dim = t->dim;
    }
    for (uint32_t k = 0; k < t->dim; k++) {
      const uint32_t bk = k + (b_dim - t->dim);
      const uint32_t size = (uint32_t)t->sizes[k];
      if (b_sizes[bk] == 1) {
        b_sizes[bk] = size;
      } else {
        TP_CHECK_ARGS(size == 1 || size == b_sizes[bk]);
      }
    }
  }
  TP_CHECK_ARGS(first >= 0);
  /* each index tensor's strides over B (0 where it repeats) */
  for (uint32_t d = 0; d < n; d++) {
    const tp_tensor *t = indices[d];
    if (t == 0) {
      continue;
    }
    uint32_t stride = 1;
    for (uint32_t k = b_dim; k-- > 0;) {
      const int tk = (int)k - (int)(b_dim - t->dim);
      const uint32_t size = tk >= 0 ? (uint32_t)t->sizes[tk] : 1u;
      p->index_strides[d][k] = size == 1 ? 0u : stride;
      stride *= size;
    }
  }
  bool adjacent = true;
  for (int d = first; d <= last; d++) {
    adjacent &= ((p->indexed >> d) & 1u) != 0;
  }
  /* the result: [leading dims] B [trailing dims], or B [unindexed dims] */
  uint32_t r = 0;
  const uint32_t lead = adjacent ? (uint32_t)first : 0u;
  for (uint32_t d = 0; d < lead; d++, r++) {
    p->res_sizes[r] = p->self_sizes[d];
    p->res_self[r] = (uint8_t)d;
  }
  p->b_start = r;
  p->b_dim = b_dim;
  for (uint32_t k = 0; k < b_dim; k++, r++) {
    p->res_sizes[r] = b_sizes[k];
  }
  for (uint32_t d = lead; d < self->dim; d++) {
    if (((p->indexed >> d) & 1u) == 0) {
      TP_CHECK_ARGS(r < TP_MAX_DIM);
      p->res_sizes[r] = p->self_sizes[d];
      p->res_self[r++] = (uint8_t)d;
    }
  }
  p->res_dim = r;
  p->res_numel = 1;
  for (uint32_t k = 0; k < r; k++) {
    p->res_numel *= p->res_sizes[k];
  }
  return TP_OK;
}

tp_status tp_adv_index_offset(const tp_adv_index_plan *p, tp_tensor *const *indices, const uint32_t *coord,
                              uint32_t *self_elem) {
  uint32_t off = 0;
  for (uint32_t r = 0; r < p->res_dim; r++) {
    if (r < p->b_start || r >= p->b_start + p->b_dim) {
      off += coord[r] * p->self_strides[p->res_self[r]];
    }
  }
  for (uint32_t d = 0; d < p->self_dim; d++) {
    if (((p->indexed >> d) & 1u) == 0) {
      continue;
    }
    uint32_t at = 0;
    for (uint32_t k = 0; k < p->b_dim; k++) {
      at += coord[p->b_start + k] * p->index_strides[d][k];
    }
    int64_t v = tp_elem_load_i64(indices[d]->data, p->index_dtype[d], at);
    if (v < 0) {
      v += p->self_sizes[d];
    }
    if (v < 0 || v >= (int64_t)p->self_sizes[d]) {
      return TP_ERR_INDEX_RANGE;
    }
    off += (uint32_t)v * p->self_strides[d];
  }
  *self_elem = off;
  return TP_OK;
}
