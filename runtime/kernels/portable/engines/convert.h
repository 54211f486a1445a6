/* The dtype-converting copy shared by _to_copy and _to_dim_order_copy: self into out of the same
 * shape, each element converted as elem.h's loads and stores do (integers exactly through
 * int64, floats through double; floats to integers truncate toward zero); the same dtype is a
 * byte copy. */
#ifndef TINYPTE_KERNELS_ENGINES_CONVERT_H
#define TINYPTE_KERNELS_ENGINES_CONVERT_H

#include <string.h>

#include "util/elem.h"
#include "kernel_util.h"

typedef struct tp_convert_state {
  uint32_t numel;
  uint8_t from, to; /* dtypes of self and out */
  uint8_t out;      /* argument slot of out */
} tp_convert_state;

static inline tp_status tp_convert_run(const tp_kernel_call *call) {
  const tp_convert_state *st = call->state;
  const tp_tensor *in = call->args[0]->as.tensor;
  tp_tensor *out = call->args[st->out]->as.tensor;
  if (st->from == st->to) {
    if (in->nbytes != 0 && in->data != out->data) {
      memmove(out->data, in->data, in->nbytes);
    }
    return TP_OK;
  }
  const bool exact_int = st->from != TP_DTYPE_FLOAT32;
  for (uint32_t i = 0; i < st->numel; i++) {
    if (exact_int) {
      tp_elem_store_i64(out->data, st->to, i, tp_elem_load_i64(in->data, st->from, i));
    } else {
      tp_elem_store_f64(out->data, st->to, i, tp_elem_load_f64(in->data, st->from, i));
    }
  }
  return TP_OK;
}

/** Check self (args[0]) and out (same shape, both real or bool) and plan the conversion. */
static inline tp_status tp_convert_prepare(tp_convert_state *st, const tp_tensor *in, tp_tensor *out,
                                           uint32_t out_slot, tp_kernel_run_fn *run) {
  if (!tp_dtype_is_real_or_bool(in->dtype) || !tp_dtype_is_real_or_bool(out->dtype)) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_TRY(tp_out_shape(out, in->dim, in->sizes));
  st->numel = out->numel;
  st->from = (uint8_t)in->dtype;
  st->to = (uint8_t)out->dtype;
  st->out = (uint8_t)out_slot;
  *run = tp_convert_run;
  return TP_OK;
}

#endif /* TINYPTE_KERNELS_ENGINES_CONVERT_H */
