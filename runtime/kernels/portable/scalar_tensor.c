/* aten::scalar_tensor.out: a 0-dim out (any real dtype or bool) holding the Scalar s. */
#include "portable/engines/fill.h"

/* scalar_tensor.out(Scalar s, *, Tensor(a!) out) -> Tensor(a!): args s, out, out. */
TP_KERNEL(aten, scalar_tensor, out, tp_fill_state) {
  tp_tensor *out, *ret;
  double v;
  TP_CHECK_ARGS(call->nargs == 3);
  TP_TRY(tp_arg_scalar(call->args, call->nargs, 0, &v));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, 1, &out));
  TP_TRY(tp_arg_tensor(call->args, call->nargs, 2, &ret));
  TP_CHECK_ARGS(out->numel == 1);
  return tp_fill_state_prepare(state, out, 1, v, run);
}
