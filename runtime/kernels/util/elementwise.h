/* What elementwise kernels share: float32 map operands, the run routine by dtype, constant
 * operands, the common argument check, and filling with one element. */
#ifndef TINYPTE_KERNELS_UTIL_ELEMENTWISE_H
#define TINYPTE_KERNELS_UTIL_ELEMENTWISE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tinypte/kernel.h"

/* The operands of a float32 elementwise kernel `op.out(Tensor self, ..., *, Tensor(a!) out)`. */
typedef struct tp_float_map {
  const float *x; /* self's elements */
  float *y;       /* out's elements */
  uint32_t n;     /* elements in each */
} tp_float_map;

/** Check a float32 map call: nargs == out_index + 2 (out, then the returned out), self at
 *  args[0] and out at args[out_index] float32 tensors (else TP_ERR_KERNEL_DTYPE) of the same
 *  shape (else TP_ERR_KERNEL_ARGS) and memory order (else TP_ERR_DIM_ORDER: a kernel flagged
 *  TP_KERNEL_DIM_ORDERS maps element i to element i). Arguments between them are the kernel's. */
tp_status tp_float_map_args(tp_value *const *args, uint32_t nargs, uint32_t out_index, tp_float_map *map);

/** tp_float_map_args for a float32 out whose self may be of any real or bool dtype (ATen promotes
 *  an integer or bool self of a float function to float32): *self_dtype is self's. */
tp_status tp_float_map_promoted_args(tp_value *const *args, uint32_t nargs, uint32_t out_index, tp_float_map *map,
                                     uint8_t *self_dtype);

/** Fill `count` elements of `esize` bytes at dst with copies of the element at `elem`. */
void tp_fill(void *dst, uint32_t count, const void *elem, size_t esize);

/** Set *run to the routine for `dtype` of a kernel with float32, int32 and int64 routines;
 *  TP_ERR_KERNEL_DTYPE for any other dtype. */
/** true when a Scalar-operand kernel takes self of dtype `self` to out of dtype `out` on its
 *  fast routines (one dtype, float32, int32 or int64); anything else goes to its generic routine
 *  (an integer or bool self promoted to a float32 out, or integer and bool outs of other widths). */
static inline bool tp_scalar_fast_dtypes(int self, int out) {
  return self == out && (out == TP_DTYPE_FLOAT32 || out == TP_DTYPE_INT32 || out == TP_DTYPE_INT64);
}

static inline tp_status tp_pick_run(int dtype, tp_kernel_run_fn f32, tp_kernel_run_fn i32, tp_kernel_run_fn i64,
                                    tp_kernel_run_fn *run) {
  *run = dtype == TP_DTYPE_FLOAT32 ? f32 : dtype == TP_DTYPE_INT32 ? i32 : dtype == TP_DTYPE_INT64 ? i64 : 0;
  return *run != 0 ? TP_OK : TP_ERR_KERNEL_DTYPE;
}

/* A constant operand of an elementwise kernel (add's sign * alpha, mul's Scalar other, ...):
 * prepare converts it once to the type the chosen run routine computes in, and keeps it in the
 * kernel's state. int32/int64 arithmetic wraps around, so their constants are kept unsigned. */
typedef union tp_elementwise_const {
  float f32;
  uint32_t u32;
  uint64_t u64;
} tp_elementwise_const;

/** The arguments an elementwise kernel `op(Tensor self, ..., *, Tensor(a!) out) -> Tensor(a!)`
 *  checks first in prepare: nargs == out_index + 2 (out at args[out_index], then the returned
 *  out), and self, out and the returned out are tensors (else TP_ERR_KERNEL_ARGS), self and out
 *  in one memory order (tp_same_memory_order, else TP_ERR_DIM_ORDER: what lets a kernel flagged
 *  TP_KERNEL_DIM_ORDERS walk both by element index). Dtypes, shapes and the arguments between
 *  self and out are the kernel's to check. */
tp_status tp_elementwise_args(const tp_kernel_call *call, uint32_t out_index, tp_tensor **self, tp_tensor **out);

#endif /* TINYPTE_KERNELS_UTIL_ELEMENTWISE_H */
