/* aten::copy_.default: the in-place form of copy.out (index_put.c has index_put_): src broadcast
 * into self and converted to self's dtype; the program's arguments are self, src, non_blocking
 * and the returned self. ExecuTorch's export functionalizes in-place operators into the out
 * forms, so a program reaches this one only when written by hand. */
#include "util/elem.h"
#include "kernel_util.h"
#include "portable/engines/nary.h"

typedef struct copy_inplace_state {
  tp_nary_plan plan; /* src against self */
  uint8_t src, self; /* dtypes */
} copy_inplace_state;

/* copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!): args self, src,
 * non_blocking, and the returned self. */
enum { COPY_INPLACE_SELF, COPY_INPLACE_SRC, COPY_INPLACE_NON_BLOCKING, COPY_INPLACE_RET };

static tp_status copy_inplace_run(const tp_kernel_call *call) {
  const copy_inplace_state *st = call->state;
  const void *x = call->args[COPY_INPLACE_SRC]->as.tensor->data;
  void *o = call->args[COPY_INPLACE_SELF]->as.tensor->data;
  tp_nary_pos pos;
  tp_nary_pos_start(&pos);
  for (uint32_t i = 0; i < st->plan.numel; i++) {
    if (st->src == TP_DTYPE_FLOAT32) {
      tp_elem_store_f64(o, st->self, i, tp_elem_load_f64(x, st->src, pos.off[0]));
    } else {
      tp_elem_store_i64(o, st->self, i, tp_elem_load_i64(x, st->src, pos.off[0]));
    }
    tp_nary_next(&st->plan, &pos);
  }
  return TP_OK;
}

TP_KERNEL(aten, copy_, default, copy_inplace_state) {
  tp_tensor *self, *src, *ret;
  TP_CHECK_ARGS(call->nargs == COPY_INPLACE_RET + 1);
  TP_TRY(tp_arg_tensor(call->args, call->nargs, COPY_INPLACE_SELF, &self));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, COPY_INPLACE_SRC, &src));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, COPY_INPLACE_RET, &ret));
  if (!tp_dtype_is_real_or_bool(self->dtype) || !tp_dtype_is_real_or_bool(src->dtype)) {
    return TP_ERR_KERNEL_DTYPE;
  }
  const tp_tensor *ins[2] = {src, self};
  TP_TRY(tp_nary_plan_init(&state->plan, ins, 2, self));
  state->src = (uint8_t)src->dtype;
  state->self = (uint8_t)self->dtype;
  *run = copy_inplace_run;
  return TP_OK;
}
