/* aten::zeros.out: out (of the given size, any real dtype or bool) filled with 0. */
#include "portable/engines/fill.h"

/* zeros.out(SymInt[] size, *, Tensor(a!) out) -> Tensor(a!): args size, out, out. */
TP_KERNEL(aten, zeros, out, tp_fill_state) {
  tp_tensor *out;
  TP_TRY(tp_fill_sized_out(call, 0, 1, &out));
  return tp_fill_state_prepare(state, out, 1, 0.0, run);
}
