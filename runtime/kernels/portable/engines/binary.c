/* The two-operand engine (engines/binary.h): prepare decides the computation type and checks out's
 * dtype; run walks the broadcast element by element through elem.h's loads and stores. */
#include "portable/engines/binary.h"

#include "util/elem.h"

static tp_status binary_float(const tp_kernel_call *call) {
  const tp_binary_state *st = call->state;
  const tp_binary_f32_fn f = st->fns->f32;
  const bool a_scalar = st->scalar == TP_BINARY_SCALAR_SELF, b_scalar = st->scalar == TP_BINARY_SCALAR_OTHER;
  const void *a = a_scalar ? 0 : call->args[0]->as.tensor->data;
  const void *b = b_scalar ? 0 : call->args[1]->as.tensor->data;
  void *o = call->args[st->out_index]->as.tensor->data;
  const float scalar = (float)st->scalar_f;
  tp_nary_pos pos;
  tp_nary_pos_start(&pos);
  for (uint32_t i = 0; i < st->plan.numel; i++) {
    const float x = a_scalar ? scalar : (float)tp_elem_load_f64(a, st->a, pos.off[0]);
    const float y = b_scalar ? scalar : (float)tp_elem_load_f64(b, st->b, pos.off[1]);
    tp_elem_store_f64(o, st->out, i, (double)f(x, y));
    tp_nary_next(&st->plan, &pos);
  }
  return TP_OK;
}

static tp_status binary_int(const tp_kernel_call *call) {
  const tp_binary_state *st = call->state;
  const tp_binary_i64_fn f = st->fns->i64;
  const bool a_scalar = st->scalar == TP_BINARY_SCALAR_SELF, b_scalar = st->scalar == TP_BINARY_SCALAR_OTHER;
  const void *a = a_scalar ? 0 : call->args[0]->as.tensor->data;
  const void *b = b_scalar ? 0 : call->args[1]->as.tensor->data;
  void *o = call->args[st->out_index]->as.tensor->data;
  tp_nary_pos pos;
  tp_nary_pos_start(&pos);
  for (uint32_t i = 0; i < st->plan.numel; i++) {
    const int64_t x = a_scalar ? st->scalar_i : tp_elem_load_i64(a, st->a, pos.off[0]);
    const int64_t y = b_scalar ? st->scalar_i : tp_elem_load_i64(b, st->b, pos.off[1]);
    if (st->fns->divides && y == 0) {
      return TP_ERR_DIVISION_BY_ZERO;
    }
    tp_elem_store_i64(o, st->out, i, f(x, y));
    tp_nary_next(&st->plan, &pos);
  }
  return TP_OK;
}

/* The Scalar at args[index]: its value in state, and the dtype it computes as (a Double as
 * float32, an Int as int64, a Bool as bool when the tensor operand is bool, else int64). */
static tp_status binary_scalar(const tp_kernel_call *call, uint32_t index, int tensor_dtype, tp_binary_state *state,
                               int *dtype) {
  const tp_value *v = call->args[index];
  TP_TRY(tp_arg_scalar(call->args, call->nargs, index, &state->scalar_f));
  if (v->tag == TP_TAG_DOUBLE) {
    *dtype = TP_DTYPE_FLOAT32;
    return TP_OK;
  }
  TP_TRY(tp_arg_int_scalar(call->args, call->nargs, index, &state->scalar_i));
  *dtype = v->tag == TP_TAG_BOOL && tensor_dtype == TP_DTYPE_BOOL ? TP_DTYPE_BOOL : TP_DTYPE_INT64;
  return TP_OK;
}

tp_status tp_binary_prepare(const tp_kernel_call *call, tp_binary_state *state, tp_kernel_run_fn *run,
                            const tp_binary_fns *fns, tp_binary_scalar scalar, uint32_t out_index) {
  tp_tensor *out, *ret, *ta = 0, *tb = 0;
  int a, b;
  TP_CHECK_ARGS(call->nargs == out_index + 2);
  TP_TRY(tp_arg_tensor(call->args, call->nargs, out_index, &out));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, out_index + 1, &ret));
  if (scalar != TP_BINARY_SCALAR_SELF) {
    TP_TRY(tp_arg_tensor(call->args, call->nargs, 0, &ta));
  }
  if (scalar != TP_BINARY_SCALAR_OTHER) {
    TP_TRY(tp_arg_tensor(call->args, call->nargs, 1, &tb));
  }
  if (scalar == TP_BINARY_SCALAR_SELF) {
    b = tb->dtype;
    TP_TRY(binary_scalar(call, 0, b, state, &a));
  } else if (scalar == TP_BINARY_SCALAR_OTHER) {
    a = ta->dtype;
    TP_TRY(binary_scalar(call, 1, a, state, &b));
  } else {
    a = ta->dtype;
    b = tb->dtype;
  }
  const tp_tensor *ins[2] = {ta, tb};
  TP_TRY(tp_nary_resize_out(ins, 2, out));
  TP_TRY(tp_nary_plan_init(&state->plan, ins, 2, out));
  if (!tp_dtype_is_real_or_bool(a) || !tp_dtype_is_real_or_bool(b) || !tp_dtype_is_real_or_bool(out->dtype)) {
    return TP_ERR_KERNEL_DTYPE;
  }
  state->fns = fns;
  state->a = (uint8_t)a;
  state->b = (uint8_t)b;
  state->out = (uint8_t)out->dtype;
  state->scalar = (uint8_t)scalar;
  state->out_index = (uint8_t)out_index;
  state->in_float = a == TP_DTYPE_FLOAT32 || b == TP_DTYPE_FLOAT32 || fns->i64 == 0;
  if (state->in_float && fns->f32 == 0) {
    return TP_ERR_KERNEL_DTYPE;
  }
  if (fns->out == TP_BINARY_ARITH) {
    const bool both_bool = a == TP_DTYPE_BOOL && b == TP_DTYPE_BOOL;
    if (state->in_float ? out->dtype != TP_DTYPE_FLOAT32 : out->dtype == TP_DTYPE_BOOL && !both_bool) {
      return TP_ERR_KERNEL_DTYPE;
    }
  }
  *run = state->in_float ? binary_float : binary_int;
  return TP_OK;
}
