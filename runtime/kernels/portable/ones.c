/* aten::ones.out: out (of the given size, any real dtype or bool) filled with 1. */
#include "portable/engines/fill.h"

/* ones.out(SymInt[] size, *, Tensor(a!) out) -> Tensor(a!): args size, out, out. */
TP_KERNEL(aten, ones, out, tp_fill_state) {
  tp_tensor *out;
  TP_TRY(tp_fill_sized_out(call, 0, 1, &out));
  return tp_fill_state_prepare(state, out, 1, 1.0, run);
}
