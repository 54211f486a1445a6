/* The copies of dim_order_ops::_clone_dim_order and _to_dim_order_copy, which ExecuTorch emits
 * for clone(), .to(dtype) and .to(memory_format=...): self into out of the same shape, where
 * out may be laid out in another dim order than self (contiguous <-> channels-last, value.h).
 *
 *  - same memory order (or tensors laid out the same either way): element i of self is element
 *    i of out, a byte copy or a dtype conversion (convert.h);
 *  - another memory order, same dtype: a gather of self's elements in out's memory order
 *    (util/copy.h: rows of channels moved whole where the layouts allow);
 *  - another memory order and another dtype: TP_ERR_DIM_ORDER (ExecuTorch's export does not
 *    combine them in one call).
 */
#ifndef TINYPTE_KERNELS_ENGINES_DIM_ORDER_COPY_H
#define TINYPTE_KERNELS_ENGINES_DIM_ORDER_COPY_H

#include "portable/engines/convert.h"
#include "kernel_util.h"

/* The state of either plan: each run routine reads its own member, at offset 0. */
typedef union tp_dim_order_copy_state {
  tp_convert_state convert;
  tp_gather_state gather;
} tp_dim_order_copy_state;

/** How a kernel copies self into out when both have one memory order: a byte copy
 *  (tp_dim_order_same_dtype_copy) or, for _to_dim_order_copy, a dtype conversion (convert.h).
 *  Passed in, so a clone's firmware does not carry the conversions (floats through double). */
typedef tp_status (*tp_dim_order_same_order_fn)(tp_dim_order_copy_state *state, const tp_tensor *in, tp_tensor *out,
                                                uint32_t out_slot, tp_kernel_run_fn *run);

/** Check a dim_order argument (None, or a permutation of out's dims: out's own dim order is the
 *  one its memory has) and plan copying self into out (argument slot `out_slot`): with
 *  `same_order` when both have one memory order, else as a gather (same dtype only). */
tp_status tp_dim_order_copy_prepare(tp_dim_order_copy_state *state, const tp_kernel_call *call, uint32_t order_slot,
                                    uint32_t out_slot, tp_dim_order_same_order_fn same_order, tp_kernel_run_fn *run);

/** A same_order routine: self and out of one dtype (else TP_ERR_KERNEL_DTYPE), a byte copy. */
tp_status tp_dim_order_same_dtype_copy(tp_dim_order_copy_state *state, const tp_tensor *in, tp_tensor *out,
                                       uint32_t out_slot, tp_kernel_run_fn *run);

#endif /* TINYPTE_KERNELS_ENGINES_DIM_ORDER_COPY_H */
