/* Advanced indexing (self[idx0, None, idx2] with index tensors), shared by index.Tensor and
 * index_put: the plan maps each element of the indexed result to the element of self it names.
 *
 * The index tensors (int64 or int32; bool masks are refused: their result shape depends on the
 * data) broadcast together to a shape B. When they sit in adjacent dimensions, the result is
 * self's leading dims, then B, then self's trailing dims; otherwise B comes first, followed by
 * the dims without an index, in order (NumPy's rule, which ATen and ExecuTorch follow). Index
 * values are data: the run checks them (TP_ERR_INDEX_RANGE; negative ones count from the end). */
#ifndef TINYPTE_KERNELS_ENGINES_ADV_INDEX_H
#define TINYPTE_KERNELS_ENGINES_ADV_INDEX_H

#include "util/elem.h"
#include "kernel_util.h"

typedef struct tp_adv_index_plan {
  uint32_t self_dim;
  uint32_t self_sizes[TP_MAX_DIM];
  uint32_t self_strides[TP_MAX_DIM];
  uint32_t res_dim;                       /* the result's dimensions */
  uint32_t res_sizes[TP_MAX_DIM];
  uint32_t res_numel;
  uint32_t b_dim;                         /* B's dimensions */
  uint32_t b_start;                       /* where B sits among the result's dimensions */
  /* result dimension r (outside B) walks self dimension res_self[r] */
  uint8_t res_self[TP_MAX_DIM];
  uint8_t indexed;                        /* bit d: self dim d has an index tensor */
  uint8_t index_dtype[TP_MAX_DIM];        /* per self dim */
  uint32_t index_strides[TP_MAX_DIM][TP_MAX_DIM]; /* per self dim: its index tensor's strides over B */
} tp_adv_index_plan;

/** Plan indexing `self` with the optional tensors `indices[0..n)` (NULL: None). */
tp_status tp_adv_index_plan_init(tp_adv_index_plan *p, const tp_tensor *self, tp_tensor *const *indices, uint32_t n);

/** The optional tensor list at args[slot] (Tensor?[]: None entries NULL). */
tp_status tp_arg_index_list(const tp_kernel_call *call, uint32_t slot, tp_tensor *const **items, uint32_t *n);

/** Self's element for the result element at coordinates `coord` (TP_ERR_INDEX_RANGE when an
 *  index value is out of range); `indices` the list the plan was made with. */
tp_status tp_adv_index_offset(const tp_adv_index_plan *p, tp_tensor *const *indices, const uint32_t *coord,
                              uint32_t *self_elem);

/** Advance result coordinates (row-major). */
static inline void tp_adv_index_next(const tp_adv_index_plan *p, uint32_t *coord) {
  for (uint32_t d = p->res_dim; d-- > 0;) {
    if (++coord[d] < p->res_sizes[d]) {
      return;
    }
    coord[d] = 0;
  }
}

#endif /* TINYPTE_KERNELS_ENGINES_ADV_INDEX_H */
