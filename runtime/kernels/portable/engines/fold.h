/* The shared engine of the reductions that fold the reduced elements of each output in order
 * (amax, amin, any, prod, max/min with indices, var, ...): the operator's file supplies the fold
 * functions; the engine walks the tp_reduce_loop and converts dtypes. Elements are folded as
 * doubles (every float32 and every integer up to 2^53 exactly), or as int64 for integer
 * operators that must be exact over the full range (TP_FOLD_INT). */
#ifndef TINYPTE_KERNELS_ENGINES_FOLD_H
#define TINYPTE_KERNELS_ENGINES_FOLD_H

#include <stdbool.h>
#include <stdint.h>

#include "util/elem.h"
#include "kernel_util.h"

/* One output's running state. */
typedef struct tp_fold {
  double acc;      /* the float fold */
  int64_t iacc;    /* the integer fold */
  double mean;     /* a two-pass fold's first-pass result */
  int64_t index;   /* position (among the reduced elements) of the chosen element */
  uint32_t count;  /* elements folded so far in this pass */
  double param;    /* the operator's constant (var's correction) */
} tp_fold;

typedef struct tp_fold_fns {
  void (*start)(tp_fold *f);                          /* before the first element */
  void (*step)(tp_fold *f, double v, int64_t iv, uint32_t r); /* element r of the output */
  void (*between)(tp_fold *f);                        /* between the passes (NULL: one pass) */
  void (*step2)(tp_fold *f, double v);                /* second pass */
  double (*result)(const tp_fold *f);                 /* the value to store (as a double) */
  bool int_result;                                    /* store iacc (exact int64) instead */
} tp_fold_fns;

typedef struct tp_fold_state {
  tp_reduce_loop loop;
  const tp_fold_fns *fns;
  double param;     /* copied into each output's tp_fold */
  uint8_t in, out;  /* dtypes of self and of the value out */
  uint8_t out_slot; /* argument slot of the value out */
  uint8_t index_slot; /* argument slot of the index out (int64), 0: none */
} tp_fold_state;

/** Plan the fold of `in` over dims (NULL/0: all) into out (argument slot out_slot; and an int64
 *  index out at index_slot unless 0, same shape); `empty_ok`: whether an empty reduction is
 *  allowed (sum-like) or an error (max-like). */
tp_status tp_fold_prepare(tp_fold_state *st, const tp_fold_fns *fns, const tp_tensor *in, const int64_t *dims,
                          uint32_t ndims, bool keepdim, const tp_tensor *out, uint32_t out_slot,
                          const tp_tensor *index_out, uint32_t index_slot, bool empty_ok, tp_kernel_run_fn *run);

#endif /* TINYPTE_KERNELS_ENGINES_FOLD_H */
