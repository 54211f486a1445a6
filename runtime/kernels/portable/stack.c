/* aten::stack.out: the tensors (all of one shape and dtype) joined along a new dimension `dim`;
 * any dtype. Viewed as (outer, inner) blocks around dim, out interleaves one block of each
 * tensor per outer index. */
#include <string.h>

#include "kernel_util.h"

typedef struct stack_state {
  uint32_t outer;       /* elements of the dimensions before dim */
  uint32_t block;       /* bytes of one tensor per outer index (inner elements * esize) */
} stack_state;

/* stack.out(Tensor[] tensors, int dim=0, *, Tensor(a!) out) -> Tensor(a!): args tensors, dim, out, out. */
enum { STACK_TENSORS, STACK_DIM, STACK_OUT, STACK_NARGS = 4 };

static tp_status stack_run(const tp_kernel_call *call) {
  const stack_state *st = call->state;
  tp_tensor *const *items = call->args[STACK_TENSORS]->as.tensor_list.items;
  const uint32_t n = call->args[STACK_TENSORS]->as.tensor_list.len;
  uint8_t *o = (uint8_t *)call->args[STACK_OUT]->as.tensor->data;
  for (uint32_t i = 0; i < st->outer; i++) {
    for (uint32_t k = 0; k < n; k++) {
      memmove(o, (const uint8_t *)items[k]->data + (size_t)i * st->block, st->block);
      o += st->block;
    }
  }
  return TP_OK;
}

TP_KERNEL(aten, stack, out, stack_state) {
  tp_tensor *const *items;
  uint32_t n;
  int64_t dim_arg;
  uint32_t dim;
  tp_tensor *out, *ret;
  TP_CHECK_ARGS(call->nargs == STACK_NARGS);
  TP_TRY(tp_arg_tensor_list(call->args, call->nargs, STACK_TENSORS, &items, &n));
  TP_TRY(tp_arg_int(call->args, call->nargs, STACK_DIM, &dim_arg));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, STACK_OUT, &out));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, STACK_OUT + 1, &ret));
  TP_CHECK_ARGS(n > 0);
  const tp_tensor *first = items[0];
  const size_t esize = tp_dtype_size(first->dtype);
  if (esize == 0 || out->dtype != first->dtype) {
    return TP_ERR_KERNEL_DTYPE;
  }
  for (uint32_t k = 1; k < n; k++) {
    if (items[k]->dtype != first->dtype) {
      return TP_ERR_KERNEL_DTYPE;
    }
    TP_CHECK_ARGS(tp_same_shape(items[k], first));
  }
  TP_CHECK_ARGS(first->dim < TP_MAX_DIM);
  TP_TRY(tp_normalize_dim(dim_arg, first->dim + 1, &dim));
  int32_t sizes[TP_MAX_DIM];
  uint32_t outer = 1, inner = 1;
  for (uint32_t d = 0, s = 0; d <= first->dim; d++) {
    if (d == dim) {
      sizes[d] = (int32_t)n;
      continue;
    }
    sizes[d] = first->sizes[s];
    if (d < dim) {
      outer *= (uint32_t)first->sizes[s];
    } else {
      inner *= (uint32_t)first->sizes[s];
    }
    s++;
  }
  TP_CHECK_ARGS(tp_shape_is(out, first->dim + 1, sizes));
  state->outer = outer;
  state->block = inner * (uint32_t)esize;
  *run = stack_run;
  return TP_OK;
}
