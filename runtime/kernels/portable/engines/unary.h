/* The shared engine of the one-input elementwise kernels (sin, abs, isnan, logical_not, ...):
 * each operator's file supplies its per-element functions and the rule for out's dtype, and
 * this engine checks the call, picks a routine and runs it.
 *
 * Out dtype rules (ExecuTorch's portable kernels):
 *  - TP_UNARY_SAME: out has self's dtype (abs, neg, ceil, ...); float32 uses `f32`, integer
 *    dtypes `i64` (computed in int64, stored wrapping), bool `b`; a NULL function refuses
 *    that class with TP_ERR_KERNEL_DTYPE.
 *  - TP_UNARY_TO_FLOAT: out is float32 and self any real dtype or bool, converted to float
 *    first (sin of an int32 tensor is float32).
 *  - TP_UNARY_TO_BOOL: self any real dtype or bool, out bool (isnan): self converts to float,
 *    `f32` returns 1 or 0.
 *  - TP_UNARY_TO_ANY: self and out any real dtype or bool (logical_not): self converts to
 *    float, `f32` computes, the result converts to out's dtype.
 */
#ifndef TINYPTE_KERNELS_ENGINES_UNARY_H
#define TINYPTE_KERNELS_ENGINES_UNARY_H

#include <stdint.h>

#include "kernel_util.h"

typedef float (*tp_unary_f32_fn)(float x);
typedef int64_t (*tp_unary_i64_fn)(int64_t x);

typedef enum tp_unary_out { TP_UNARY_SAME, TP_UNARY_TO_FLOAT, TP_UNARY_TO_BOOL, TP_UNARY_TO_ANY } tp_unary_out;

/* One operator's element functions (a static const in its file). */
typedef struct tp_unary_fns {
  tp_unary_out out;
  tp_unary_f32_fn f32; /* float32 (and every converted input outside TP_UNARY_SAME); NULL: refused */
  tp_unary_i64_fn i64; /* TP_UNARY_SAME integer dtypes; NULL: refused */
  tp_unary_i64_fn b;   /* TP_UNARY_SAME bool (0/1 in, non-zero is true out); NULL: refused */
} tp_unary_fns;

typedef struct tp_unary_state {
  const tp_unary_fns *fns;
  uint32_t numel;
  uint8_t in, out; /* dtypes */
  float param;     /* a kernel's constant (logit's eps); unused by the engine */
} tp_unary_state;

/** Check `op(Tensor self, ..., *, Tensor(a!) out)` with out at args[out_index] (same shape as
 *  self, dtype per fns->out, one memory order: any dim order) and pick the routine. */
tp_status tp_unary_prepare(const tp_kernel_call *call, tp_unary_state *state, tp_kernel_run_fn *run,
                           const tp_unary_fns *fns, uint32_t out_index);

/** A unary kernel of schema `op.out(Tensor self, *, Tensor(a!) out)` whose state is a
 *  tp_unary_state and whose functions are `fns`. */
#define TP_UNARY_KERNEL(ns, name, overload, fns)                                      \
  TP_KERNEL_WITH(ns, name, overload, tp_unary_state, TP_KERNEL_DYNAMIC_SHAPES | TP_KERNEL_DIM_ORDERS) { \
    return tp_unary_prepare(call, state, run, &(fns), 1);                             \
  }

#endif /* TINYPTE_KERNELS_ENGINES_UNARY_H */
