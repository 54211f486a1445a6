/* Dim orders: reading a Tensor's, and keeping channels-last tensors from kernels that do not
 * know them (value.h). Linked only for programs that need it (internal.h). */
#include <stdbool.h>

#include "internal.h"

/* Whether `order` lists the dims of `sizes` in the same memory order as `want` does: dims of
 * size 1 take no room, so where they stand does not matter (torch gives such dims whatever
 * place its stride ties leave them, e.g. (0, 2, 1, 3) for a [1, 1, 2, 2] tensor). */
static bool same_memory_order(const uint8_t *order, const uint8_t *want, const int32_t *sizes, uint32_t dim) {
  uint32_t j = 0;
  for (uint32_t i = 0; i < dim; i++) {
    if (sizes[order[i]] == 1) {
      continue;
    }
    while (j < dim && sizes[want[j]] == 1) {
      j++;
    }
    if (j == dim || want[j] != order[i]) {
      return false;
    }
    j++;
  }
  return true;
}

/* A dim order tinypte runs: contiguous (0..n-1), or channels-last (0, 2, .., n-1, 1) for 4-D and
 * 5-D tensors (value.h), each up to where dims of size 1 stand. Any other order is
 * TP_ERR_UNSUPPORTED; a list that is not a permutation, TP_ERR_CORRUPT. */
tp_status tp_dim_order_read(const uint8_t *order, const int32_t *sizes, uint32_t dim, bool dynamic,
                            bool *channels_last) {
  uint32_t seen = 0;
  uint8_t contiguous[TP_MAX_DIM] = {0};
  uint8_t last[TP_MAX_DIM] = {0};
  for (uint32_t d = 0; d < dim; d++) {
    if (order[d] >= dim || (seen & (1u << order[d])) != 0) {
      return TP_ERR_CORRUPT;
    }
    seen |= 1u << order[d];
    contiguous[d] = (uint8_t)d;
    last[d] = (uint8_t)(d == 0 ? 0u : d == dim - 1 ? 1u : d + 1);
  }
  if (same_memory_order(order, contiguous, sizes, dim)) {
    *channels_last = false;
    return TP_OK;
  }
  if ((dim == 4 || dim == 5) && same_memory_order(order, last, sizes, dim)) {
    /* With one channel, or one spatial position, both orders put every element at the same
     * place: such a tensor is contiguous for every kernel (unless its sizes change). */
    uint64_t spatial = 1;
    for (uint32_t d = 2; d < dim; d++) {
      spatial *= (uint64_t)sizes[d];
    }
    *channels_last = dynamic || (sizes[1] != 1 && spatial != 1);
    return TP_OK;
  }
  return TP_ERR_UNSUPPORTED;
}

/* Whether tensor `t` is channels-last. */
static bool is_channels_last(const tp_tensor *t) { return t->channels_last != 0; }

/* A kernel that reads only contiguous tensors is never given a channels-last one. */
tp_status tp_dim_order_check_call(const tp_instruction *instruction) {
  if ((instruction->kernel->flags & TP_KERNEL_DIM_ORDERS) != 0) {
    return TP_OK;
  }
  for (uint32_t i = 0; i < instruction->call.nargs; i++) {
    if (tp_value_has_tensor(instruction->call.args[i], is_channels_last)) {
      return TP_ERR_DIM_ORDER;
    }
  }
  return TP_OK;
}

