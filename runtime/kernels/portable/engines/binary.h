/* The shared engine of the two-operand elementwise kernels with ATen's type promotion
 * (comparisons, bitwise and logical operators, maximum, fmod, remainder, atan2, ...): each
 * operator's file supplies its element functions and out rule; this engine checks the call,
 * broadcasts, and converts dtypes.
 *
 * Computation: when either operand is float32 (or the Scalar is a Double) the operands
 * convert to float and `f32` computes; otherwise (integer and bool operands) they convert to
 * int64 and `i64` computes, its result stored wrapping into out's dtype (what ATen's
 * arithmetic in the promoted integer type gives for these operators).
 *
 * Out rules:
 *  - TP_BINARY_ARITH: a float computation needs a float32 out; an integer one an integer or
 *    float32 out (bool only when both operands are bool).
 *  - TP_BINARY_PREDICATE: the result (1 or 0 for comparisons and logical operators) converts
 *    to any real or bool out.
 */
#ifndef TINYPTE_KERNELS_ENGINES_BINARY_H
#define TINYPTE_KERNELS_ENGINES_BINARY_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel_util.h"
#include "portable/engines/nary.h"

typedef float (*tp_binary_f32_fn)(float a, float b);
typedef int64_t (*tp_binary_i64_fn)(int64_t a, int64_t b);

typedef enum tp_binary_out { TP_BINARY_ARITH, TP_BINARY_PREDICATE } tp_binary_out;

/* One operator's element functions (a static const in its file). */
typedef struct tp_binary_fns {
  tp_binary_out out;
  tp_binary_f32_fn f32; /* float computation; NULL: float operands refused (bitwise operators) */
  tp_binary_i64_fn i64; /* integer computation; NULL: integer operands compute in float */
  bool divides;         /* i64 divides by b: b == 0 fails the run with TP_ERR_DIVISION_BY_ZERO */
} tp_binary_fns;

/* Which operand is a Scalar: none (op.Tensor_out), the second (op.Scalar_out: self op
 * Scalar), or the first (pow.Scalar_out: Scalar ** exponent). */
typedef enum tp_binary_scalar { TP_BINARY_NO_SCALAR, TP_BINARY_SCALAR_OTHER, TP_BINARY_SCALAR_SELF } tp_binary_scalar;

typedef struct tp_binary_state {
  const tp_binary_fns *fns;
  tp_nary_plan plan;  /* the two operands (a Scalar: stride 0) against out */
  double scalar_f;    /* the Scalar operand, as a double ... */
  int64_t scalar_i;   /* ... and as an int64 */
  uint8_t a, b, out;  /* dtypes of the operands (a Scalar: FLOAT32, INT64 or BOOL) and out */
  uint8_t scalar;     /* a tp_binary_scalar */
  uint8_t out_index;  /* argument slot of out */
  bool in_float;      /* compute with f32 */
} tp_binary_state;

/** Check `op(a, b, [extra arguments], *, Tensor(a!) out)` with the operands at args[0] and
 *  args[1] (one of them a Scalar as `scalar` says) and out at args[out_index] (the kernel reads
 *  the arguments between), then pick the routine. */
tp_status tp_binary_prepare(const tp_kernel_call *call, tp_binary_state *state, tp_kernel_run_fn *run,
                            const tp_binary_fns *fns, tp_binary_scalar scalar, uint32_t out_index);

/** Binary kernels whose state is a tp_binary_state: `op.Tensor_out(Tensor self, Tensor other, *,
 *  Tensor(a!) out)` and `op.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out)`. */
#define TP_BINARY_KERNEL(ns, name, overload, fns)                                                  \
  TP_KERNEL_WITH(ns, name, overload, tp_binary_state, TP_KERNEL_DYNAMIC_SHAPES | TP_KERNEL_DIM_ORDERS) {                  \
    return tp_binary_prepare(call, state, run, &(fns), TP_BINARY_NO_SCALAR, 2);                    \
  }
#define TP_BINARY_SCALAR_KERNEL(ns, name, overload, fns)                                           \
  TP_KERNEL_WITH(ns, name, overload, tp_binary_state, TP_KERNEL_DYNAMIC_SHAPES | TP_KERNEL_DIM_ORDERS) {                  \
    return tp_binary_prepare(call, state, run, &(fns), TP_BINARY_SCALAR_OTHER, 2);                 \
  }

#endif /* TINYPTE_KERNELS_ENGINES_BINARY_H */
