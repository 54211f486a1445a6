/* aten::clamp.Tensor_out: out = min(max(self, min), max) with tensor bounds (either may be None),
 * the three broadcast together (clamp.c has the Scalar-bound overload). Any real dtypes with
 * type promotion: float when any operand or out is float32, NaN propagating from self or a
 * bound as in ExecuTorch's portable kernel; int64 arithmetic otherwise. min > max gives max. */
#include "util/elem.h"
#include "kernel_util.h"
#include "portable/engines/nary.h"

typedef struct clamp_tensor_state {
  tp_nary_plan plan;      /* self, min, max against out (an absent bound: NULL operand) */
  uint8_t self, lo, hi;   /* dtypes */
  uint8_t out;
  bool has_lo, has_hi;
  bool in_float;
} clamp_tensor_state;

/* clamp.Tensor_out(Tensor self, Tensor? min=None, Tensor? max=None, *, Tensor(a!) out): args self,
 * min, max, out, out. */
enum { CLAMP_T_SELF, CLAMP_T_MIN, CLAMP_T_MAX, CLAMP_T_OUT };

static double clamp_max_nan(double a, double b) { return a != a ? a : b != b ? b : a < b ? b : a; }
static double clamp_min_nan(double a, double b) { return a != a ? a : b != b ? b : b < a ? b : a; }

static tp_status clamp_tensor_run(const tp_kernel_call *call) {
  const clamp_tensor_state *st = call->state;
  const void *x = call->args[CLAMP_T_SELF]->as.tensor->data;
  const void *lo = st->has_lo ? call->args[CLAMP_T_MIN]->as.tensor->data : 0;
  const void *hi = st->has_hi ? call->args[CLAMP_T_MAX]->as.tensor->data : 0;
  void *o = call->args[CLAMP_T_OUT]->as.tensor->data;
  tp_nary_pos pos;
  tp_nary_pos_start(&pos);
  for (uint32_t i = 0; i < st->plan.numel; i++) {
    if (st->in_float) {
      double v = (float)tp_elem_load_f64(x, st->self, pos.off[0]);
      if (lo != 0) {
        v = clamp_max_nan(v, (float)tp_elem_load_f64(lo, st->lo, pos.off[1]));
      }
      if (hi != 0) {
        v = clamp_min_nan(v, (float)tp_elem_load_f64(hi, st->hi, pos.off[2]));
      }
      tp_elem_store_f64(o, st->out, i, v);
    } else {
      int64_t v = tp_elem_load_i64(x, st->self, pos.off[0]);
      if (lo != 0) {
        const int64_t l = tp_elem_load_i64(lo, st->lo, pos.off[1]);
        v = v < l ? l : v;
      }
      if (hi != 0) {
        const int64_t h = tp_elem_load_i64(hi, st->hi, pos.off[2]);
        v = h < v ? h : v;
      }
      tp_elem_store_i64(o, st->out, i, v);
    }
    tp_nary_next(&st->plan, &pos);
  }
  return TP_OK;
}

TP_KERNEL(aten, clamp, Tensor_out, clamp_tensor_state) {
  tp_tensor *self, *lo, *hi, *out;
  TP_TRY(tp_elementwise_args(call, CLAMP_T_OUT, &self, &out));
  TP_TRY(tp_arg_optional_tensor(call->args, call->nargs, CLAMP_T_MIN, &lo));
  TP_TRY(tp_arg_optional_tensor(call->args, call->nargs, CLAMP_T_MAX, &hi));
  TP_CHECK_ARGS(lo != 0 || hi != 0);
  if (!tp_dtype_is_real(self->dtype) || !tp_dtype_is_real(out->dtype) || (lo != 0 && !tp_dtype_is_real(lo->dtype)) ||
      (hi != 0 && !tp_dtype_is_real(hi->dtype))) {
    return TP_ERR_KERNEL_DTYPE;
  }
  const tp_tensor *ins[3] = {self, lo, hi};
  TP_TRY(tp_nary_plan_init(&state->plan, ins, 3, out));
  state->self = (uint8_t)self->dtype;
  state->lo = lo != 0 ? (uint8_t)lo->dtype : 0;
  state->hi = hi != 0 ? (uint8_t)hi->dtype : 0;
  state->out = (uint8_t)out->dtype;
  state->has_lo = lo != 0;
  state->has_hi = hi != 0;
  state->in_float = self->dtype == TP_DTYPE_FLOAT32 || out->dtype == TP_DTYPE_FLOAT32 ||
                    (lo != 0 && lo->dtype == TP_DTYPE_FLOAT32) || (hi != 0 && hi->dtype == TP_DTYPE_FLOAT32);
  *run = clamp_tensor_run;
  return TP_OK;
}
