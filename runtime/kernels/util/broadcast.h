/* Broadcasting helpers: ATen/NumPy broadcast shapes, a row iterator over two broadcast inputs
 * (used by the binary elementwise kernels: planned in prepare, packed into the kernel's state,
 * iterated in run).
 *
 * Shapes are aligned at their last dimension; a size-1 (or missing) dimension repeats to the
 * other operand's size. Dimensions of size 1 are dropped and adjacent dimensions that stay
 * contiguous in every operand are merged, so the common cases (same shape, tensor op scalar,
 * row vector) iterate as a few long rows.
 */
#ifndef TINYPTE_KERNELS_UTIL_BROADCAST_H
#define TINYPTE_KERNELS_UTIL_BROADCAST_H

#include <stddef.h>
#include <stdint.h>

#include "kernel_util.h"

/** The broadcast shape of a and b; TP_ERR_KERNEL_ARGS when they do not broadcast. */
tp_status tp_broadcast_shape(const tp_tensor *a, const tp_tensor *b, uint32_t *dim, int32_t sizes[TP_MAX_DIM]);

/* Two inputs broadcast against a contiguous output, as rows of the (merged) last dimension. */
typedef struct tp_bcast {
  uint32_t dim;                    /* merged dimensions, at least 1 */
  uint32_t sizes[TP_MAX_DIM];      /* merged sizes; sizes[dim - 1] is the row length */
  uint32_t strides[2][TP_MAX_DIM]; /* element strides of input 0 / 1 per merged dim, 0 where broadcast */
  uint32_t rows;                   /* number of rows: numel / row length (0 for an empty output) */
} tp_bcast;

/* Position of the current row: multi-index over dims [0, dim - 1) and the inputs' element offsets. */
typedef struct tp_bcast_pos {
  uint32_t index[TP_MAX_DIM];
  uint32_t off[2];
} tp_bcast_pos;

/** Plan broadcasting a and b into out. TP_ERR_KERNEL_ARGS when a and b do not broadcast or out's
 *  shape is not exactly the broadcast shape (a dynamic out is given it first: tp_out_shape). */
tp_status tp_bcast_init(tp_bcast *bc, const tp_tensor *a, const tp_tensor *b, tp_tensor *out);

/* A tp_bcast as a kernel's state keeps it from prepare to run: 36 bytes instead of 104. The
 * strides need not be stored: the inputs are contiguous, so an input's stride along a merged
 * dimension is 0 where it repeats and otherwise the product of the merged sizes inside that
 * dimension along which it does not repeat. */
typedef struct tp_bcast_packed {
  uint32_t sizes[TP_MAX_DIM]; /* tp_bcast's merged sizes */
  uint8_t dim;                /* tp_bcast's merged dimensions, at least 1 */
  uint8_t repeats[2];         /* input 0 / 1: bit d set when it repeats along merged dim d (stride 0) */
} tp_bcast_packed;

_Static_assert(TP_MAX_DIM <= 8, "tp_bcast_packed.repeats holds one bit per dimension");

/** tp_bcast_init, packed: what prepare calls (same checks, same statuses). */
tp_status tp_bcast_prepare(tp_bcast_packed *packed, const tp_tensor *a, const tp_tensor *b, tp_tensor *out);

/** The plan tp_bcast_prepare packed, ready to iterate: what run calls first (a few operations
 *  per merged dimension). */
void tp_bcast_unpack(const tp_bcast_packed *packed, tp_bcast *bc);

static inline void tp_bcast_pos_start(tp_bcast_pos *pos) {
  for (uint32_t d = 0; d < TP_MAX_DIM; d++) {
    pos->index[d] = 0;
  }
  pos->off[0] = 0;
  pos->off[1] = 0;
}

/** Move pos to the next row. */
static inline void tp_bcast_next_row(const tp_bcast *bc, tp_bcast_pos *pos) {
  for (uint32_t d = bc->dim - 1; d-- > 0;) {
    pos->off[0] += bc->strides[0][d];
    pos->off[1] += bc->strides[1][d];
    if (++pos->index[d] < bc->sizes[d]) {
      return;
    }
    pos->off[0] -= bc->strides[0][d] * bc->sizes[d];
    pos->off[1] -= bc->strides[1][d] * bc->sizes[d];
    pos->index[d] = 0;
  }
}

/* out[i] = EXPR for every output element, where EXPR reads the broadcast input elements as `x`
 * (type TA, from a_data) and `y` (type TB, from b_data); out_data has type TO. `bc` is an
 * initialized tp_bcast lvalue. */
#define TP_BCAST_APPLY(bc, TA, a_data, TB, b_data, TO, out_data, EXPR)                    \
  do {                                                                                    \
    const TA *tp_a_ = (const TA *)(a_data);                                               \
    const TB *tp_b_ = (const TB *)(b_data);                                               \
    TO *tp_o_ = (TO *)(out_data);                                                         \
    const uint32_t tp_n_ = (bc).sizes[(bc).dim - 1];                                      \
    const uint32_t tp_sa_ = (bc).strides[0][(bc).dim - 1];                                \
    const uint32_t tp_sb_ = (bc).strides[1][(bc).dim - 1];                                \
    tp_bcast_pos tp_pos_;                                                                 \
    tp_bcast_pos_start(&tp_pos_);                                                         \
    for (uint32_t tp_r_ = 0; tp_r_ < (bc).rows; tp_r_++) {                                \
      const TA *tp_pa_ = tp_a_ + tp_pos_.off[0];                                          \
      const TB *tp_pb_ = tp_b_ + tp_pos_.off[1];                                          \
      for (uint32_t tp_j_ = 0; tp_j_ < tp_n_; tp_j_++) {                                  \
        const TA x = tp_pa_[tp_j_ * tp_sa_];                                              \
        const TB y = tp_pb_[tp_j_ * tp_sb_];                                              \
        tp_o_[tp_j_] = (EXPR);                                                            \
      }                                                                                   \
      tp_o_ += tp_n_;                                                                     \
      tp_bcast_next_row(&(bc), &tp_pos_);                                                 \
    }                                                                                     \
  } while (0)

/** true for the dtypes of tp_dtypes_bcast (portable/engines/dtypes.h): int8, uint8, int16, bool. */
static inline bool tp_dtype_is_narrow(int dtype) {
  return dtype == TP_DTYPE_INT8 || dtype == TP_DTYPE_UINT8 || dtype == TP_DTYPE_INT16 || dtype == TP_DTYPE_BOOL;
}

#endif /* TINYPTE_KERNELS_UTIL_BROADCAST_H */
