/* aten::prod: the product of the elements, over everything (prod.out) or along one dim
 * (prod.int_out). self any real dtype or bool; out of the dtype the program asks for (ATen:
 * int64 for integer and bool self unless dtype is given). Integer products are exact and wrap
 * in int64; float products accumulate in double. */
#include "portable/engines/fold.h"

static void prod_start(tp_fold *f) {
  f->acc = 1.0;
  f->iacc = 1;
}

static void prod_step(tp_fold *f, double v, int64_t iv, uint32_t r) {
  (void)r;
  f->acc *= v;
  f->iacc = (int64_t)((uint64_t)f->iacc * (uint64_t)iv);
}

static double prod_result(const tp_fold *f) { return f->acc; }

static const tp_fold_fns prod_float = {prod_start, prod_step, 0, 0, prod_result, false};
static const tp_fold_fns prod_int = {prod_start, prod_step, 0, 0, prod_result, true};

static const tp_fold_fns *prod_fns(const tp_tensor *in, const tp_tensor *out) {
  return in->dtype == TP_DTYPE_FLOAT32 || out->dtype == TP_DTYPE_FLOAT32 ? &prod_float : &prod_int;
}

/* prod.out(Tensor self, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!): args self, dtype, out, out. */
TP_KERNEL(aten, prod, out, tp_fold_state) {
  tp_tensor *in, *out;
  TP_TRY(tp_elementwise_args(call, 2, &in, &out));
  return tp_fold_prepare(state, prod_fns(in, out), in, 0, 0, false, out, 2, 0, 0, true, run);
}

/* prod.int_out(Tensor self, int dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out) ->
 * Tensor(a!): args self, dim, keepdim, dtype, out, out. */
TP_KERNEL(aten, prod, int_out, tp_fold_state) {
  tp_tensor *in, *out;
  int64_t dim;
  bool keepdim;
  TP_TRY(tp_elementwise_args(call, 4, &in, &out));
  TP_TRY(tp_arg_int(call->args, call->nargs, 1, &dim));
  TP_TRY(tp_arg_bool(call->args, call->nargs, 2, &keepdim));
  return tp_fold_prepare(state, prod_fns(in, out), in, &dim, 1, keepdim, out, 4, 0, 0, true, run);
}
