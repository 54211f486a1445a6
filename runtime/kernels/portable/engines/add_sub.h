/* Shared implementation of aten::add and aten::sub (see engines/add_sub.c): add.c and sub.c define
 * the kernels with these states and prepare functions, sign +1 or -1. */
#ifndef TINYPTE_KERNELS_ENGINES_ADD_SUB_H
#define TINYPTE_KERNELS_ENGINES_ADD_SUB_H

#include "util/broadcast.h"
#include "kernel_util.h"

/* add.out / sub.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)
 * and add.Scalar_out / sub.Scalar_out(Tensor self, Scalar other, Scalar alpha=1, *,
 * Tensor(a!) out) -> Tensor(a!): args self, other, alpha, out, out. */
enum { ADD_SUB_SELF, ADD_SUB_OTHER, ADD_SUB_ALPHA, ADD_SUB_OUT };

/* add.out / sub.out: how self and other broadcast into out, and the scale of other. */
typedef struct tp_add_sub_state {
  tp_bcast_packed bcast;      /* self (input 0) and other (input 1) against out */
  tp_elementwise_const alpha; /* sign * alpha in out's dtype */
  uint8_t dtype;              /* out's, for the narrow routine */
} tp_add_sub_state;

/* add.Scalar_out / sub.Scalar_out: out = self + c elementwise. */
typedef struct tp_add_sub_scalar_state {
  uint32_t numel;         /* elements of self and out */
  tp_elementwise_const c; /* (sign * alpha) * other in out's dtype (int64 for narrow outs) */
  uint8_t self, out;      /* dtypes, for the generic routine */
} tp_add_sub_scalar_state;

/** Prepare add.out (sign +1) or sub.out (sign -1). */
tp_status tp_add_sub_prepare(const tp_kernel_call *call, tp_add_sub_state *state, tp_kernel_run_fn *run, int sign);
/** Prepare add.Scalar_out (sign +1) or sub.Scalar_out (sign -1). */
tp_status tp_add_sub_scalar_prepare(const tp_kernel_call *call, tp_add_sub_scalar_state *state, tp_kernel_run_fn *run,
                                    int sign);

#endif /* TINYPTE_KERNELS_ENGINES_ADD_SUB_H */
