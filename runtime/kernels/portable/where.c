/* aten::where.self_out: out = condition ? self : other, elementwise with the three broadcast
 * together. condition is bool (or uint8, read as non-zero); self and other of any real dtype or
 * bool, the chosen element converting to out's dtype (float32 when either is float32, the
 * promoted integer dtype otherwise: the exported program's out says which). */
#include "util/elem.h"
#include "kernel_util.h"
#include "portable/engines/nary.h"

typedef struct where_state {
  tp_nary_plan plan;   /* condition, self, other against out */
  uint8_t cond, a, b;  /* dtypes */
  uint8_t out;
  bool in_float;       /* move values as doubles (else as int64) */
} where_state;

/* where.self_out(Tensor condition, Tensor self, Tensor other, *, Tensor(a!) out): args condition,
 * self, other, out, out. */
enum { WHERE_COND, WHERE_SELF, WHERE_OTHER, WHERE_OUT };

static tp_status where_run(const tp_kernel_call *call) {
  const where_state *st = call->state;
  const uint8_t *c = (const uint8_t *)call->args[WHERE_COND]->as.tensor->data;
  const void *a = call->args[WHERE_SELF]->as.tensor->data;
  const void *b = call->args[WHERE_OTHER]->as.tensor->data;
  void *o = call->args[WHERE_OUT]->as.tensor->data;
  tp_nary_pos pos;
  tp_nary_pos_start(&pos);
  for (uint32_t i = 0; i < st->plan.numel; i++) {
    const bool pick_a = c[pos.off[0]] != 0;
    const void *src = pick_a ? a : b;
    const int dtype = pick_a ? st->a : st->b;
    const uint32_t off = pick_a ? pos.off[1] : pos.off[2];
    if (st->in_float) {
      tp_elem_store_f64(o, st->out, i, tp_elem_load_f64(src, dtype, off));
    } else {
      tp_elem_store_i64(o, st->out, i, tp_elem_load_i64(src, dtype, off));
    }
    tp_nary_next(&st->plan, &pos);
  }
  return TP_OK;
}

TP_KERNEL_WITH(aten, where, self_out, where_state, TP_KERNEL_DIM_ORDERS) {
  tp_tensor *cond, *a, *b, *out, *ret;
  TP_CHECK_ARGS(call->nargs == WHERE_OUT + 2);
  TP_TRY(tp_arg_tensor(call->args, call->nargs, WHERE_COND, &cond));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, WHERE_SELF, &a));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, WHERE_OTHER, &b));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, WHERE_OUT, &out));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, WHERE_OUT + 1, &ret));
  if ((cond->dtype != TP_DTYPE_BOOL && cond->dtype != TP_DTYPE_UINT8) || !tp_dtype_is_real_or_bool(a->dtype) ||
      !tp_dtype_is_real_or_bool(b->dtype) || !tp_dtype_is_real_or_bool(out->dtype)) {
    return TP_ERR_KERNEL_DTYPE;
  }
  const tp_tensor *ins[3] = {cond, a, b};
  TP_TRY(tp_nary_plan_init(&state->plan, ins, 3, out));
  state->cond = (uint8_t)cond->dtype;
  state->a = (uint8_t)a->dtype;
  state->b = (uint8_t)b->dtype;
  state->out = (uint8_t)out->dtype;
  state->in_float = a->dtype == TP_DTYPE_FLOAT32 || b->dtype == TP_DTYPE_FLOAT32 || out->dtype == TP_DTYPE_FLOAT32;
  *run = where_run;
  return TP_OK;
}
