/* aten::copy.out: out = src broadcast to self's shape and converted to self's dtype (self gives
 * only the shape and dtype); src and self of any real dtype or bool. Element by element through
 * nary.h's broadcast and elem.h's conversions. */
#include "util/elem.h"
#include "kernel_util.h"
#include "portable/engines/nary.h"

typedef struct copy_state {
  tp_nary_plan plan; /* src against out */
  uint8_t src, out;  /* dtypes */
} copy_state;

/* copy.out(Tensor self, Tensor src, bool non_blocking=False, *, Tensor(a!) out) -> Tensor(a!): args
 * self, src, non_blocking, out, out. */
enum { COPY_SELF, COPY_SRC, COPY_NON_BLOCKING, COPY_OUT };

static tp_status copy_run(const tp_kernel_call *call) {
  const copy_state *st = call->state;
  const void *x = call->args[COPY_SRC]->as.tensor->data;
  void *o = call->args[COPY_OUT]->as.tensor->data;
  const bool exact_int = st->src != TP_DTYPE_FLOAT32;
  tp_nary_pos pos;
  tp_nary_pos_start(&pos);
  for (uint32_t i = 0; i < st->plan.numel; i++) {
    if (exact_int) {
      tp_elem_store_i64(o, st->out, i, tp_elem_load_i64(x, st->src, pos.off[0]));
    } else {
      tp_elem_store_f64(o, st->out, i, tp_elem_load_f64(x, st->src, pos.off[0]));
    }
    tp_nary_next(&st->plan, &pos);
  }
  return TP_OK;
}

TP_KERNEL(aten, copy, out, copy_state) {
  tp_tensor *self, *src, *out;
  TP_TRY(tp_elementwise_args(call, COPY_OUT, &self, &out));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, COPY_SRC, &src));
  if (self->dtype != out->dtype || !tp_dtype_is_real_or_bool(src->dtype) || !tp_dtype_is_real_or_bool(out->dtype)) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(tp_same_shape(self, out));
  /* self rides along as a second operand so out's shape may be larger than src's (run reads
   * only src's offsets) */
  const tp_tensor *ins[2] = {src, self};
  TP_TRY(tp_nary_plan_init(&state->plan, ins, 2, out));
  state->src = (uint8_t)src->dtype;
  state->out = (uint8_t)out->dtype;
  *run = copy_run;
  return TP_OK;
}
