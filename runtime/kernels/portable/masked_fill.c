/* aten::masked_fill.Scalar_out: out = mask ? value : self elementwise, mask (bool) broadcast to
 * self's shape; self and out of one real dtype or bool, value converted to it once in prepare
 * (a value that does not fit the dtype is refused, like a C cast would be undefined). */
#include <string.h>

#include "kernel_util.h"
#include "portable/engines/nary.h"

typedef struct masked_fill_state {
  tp_nary_plan plan;    /* self, mask against out */
  uint8_t value[8];     /* value as one element of out's dtype */
  uint32_t esize;       /* bytes per element */
} masked_fill_state;

/* masked_fill.Scalar_out(Tensor self, Tensor mask, Scalar value, *, Tensor(a!) out): args self,
 * mask, value, out, out. */
enum { MASKED_FILL_SELF, MASKED_FILL_MASK, MASKED_FILL_VALUE, MASKED_FILL_OUT };

static tp_status masked_fill_run(const tp_kernel_call *call) {
  const masked_fill_state *st = call->state;
  const uint8_t *x = (const uint8_t *)call->args[MASKED_FILL_SELF]->as.tensor->data;
  const uint8_t *m = (const uint8_t *)call->args[MASKED_FILL_MASK]->as.tensor->data;
  uint8_t *o = (uint8_t *)call->args[MASKED_FILL_OUT]->as.tensor->data;
  const uint32_t es = st->esize;
  tp_nary_pos pos;
  tp_nary_pos_start(&pos);
  for (uint32_t i = 0; i < st->plan.numel; i++) {
    memmove(o + (size_t)i * es, m[pos.off[1]] != 0 ? st->value : x + (size_t)pos.off[0] * es, es);
    tp_nary_next(&st->plan, &pos);
  }
  return TP_OK;
}

TP_KERNEL(aten, masked_fill, Scalar_out, masked_fill_state) {
  tp_tensor *self, *mask, *out;
  TP_TRY(tp_elementwise_args(call, MASKED_FILL_OUT, &self, &out));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, MASKED_FILL_MASK, &mask));
  if (mask->dtype != TP_DTYPE_BOOL || self->dtype != out->dtype) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(tp_same_shape(self, out));
  const tp_tensor *ins[2] = {self, mask};
  TP_TRY(tp_nary_plan_init(&state->plan, ins, 2, out));
  TP_TRY(tp_arg_scalar_as(call->args, call->nargs, MASKED_FILL_VALUE, out->dtype, state->value));
  state->esize = (uint32_t)tp_dtype_size(out->dtype);
  *run = masked_fill_run;
  return TP_OK;
}
