/* The shared run of the kernels that fill out with one value (zeros, ones, fill, scalar_tensor):
 * prepare converts the value to one element of out's dtype and checks out's shape; run repeats
 * it. */
#ifndef TINYPTE_KERNELS_ENGINES_FILL_H
#define TINYPTE_KERNELS_ENGINES_FILL_H

#include "util/elem.h"
#include "kernel_util.h"

typedef struct tp_fill_state {
  uint8_t value[8]; /* one element of out's dtype */
  uint32_t numel;
  uint32_t esize;
  uint32_t out;     /* argument slot of out */
} tp_fill_state;

static inline tp_status tp_fill_state_run(const tp_kernel_call *call) {
  const tp_fill_state *st = call->state;
  tp_fill(call->args[st->out]->as.tensor->data, st->numel, st->value, st->esize);
  return TP_OK;
}

/** Fill the state for out (argument slot out_slot, any real dtype or bool) and value v. */
static inline tp_status tp_fill_state_prepare(tp_fill_state *st, const tp_tensor *out, uint32_t out_slot, double v,
                                              tp_kernel_run_fn *run) {
  if (!tp_dtype_is_real_or_bool(out->dtype)) {
    return TP_ERR_KERNEL_DTYPE;
  }
  tp_elem_store_f64(st->value, out->dtype, 0, v);
  st->numel = out->numel;
  st->esize = (uint32_t)tp_dtype_size(out->dtype);
  st->out = out_slot;
  *run = tp_fill_state_run;
  return TP_OK;
}

/** The out tensor of `op(int[] size, ..., *, Tensor(a!) out)`: args[size_slot] must equal its shape. */
static inline tp_status tp_fill_sized_out(const tp_kernel_call *call, uint32_t size_slot, uint32_t out_slot,
                                          tp_tensor **out) {
  const int64_t *size;
  uint32_t n;
  tp_tensor *ret;
  TP_CHECK_ARGS(call->nargs == out_slot + 2);
  TP_TRY(tp_arg_int_list(call->args, call->nargs, size_slot, &size, &n));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, out_slot, out));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, out_slot + 1, &ret));
  TP_CHECK_ARGS((*out)->dim == n);
  for (uint32_t d = 0; d < n; d++) {
    TP_CHECK_ARGS((*out)->sizes[d] == size[d]);
  }
  return TP_OK;
}

#endif /* TINYPTE_KERNELS_ENGINES_FILL_H */
