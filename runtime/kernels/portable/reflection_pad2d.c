/* aten::reflection_pad2d.out: self padded in its last 2 dimension(s), reflected about the edge (the edge not repeated);
 * any dtype (engines/pad.h). */
#include "portable/engines/pad.h"

/* reflection_pad2d.out(Tensor self, SymInt[4] padding, *, Tensor(a!) out) -> Tensor(a!): args self,
 * padding, out, out. */
TP_KERNEL(aten, reflection_pad2d, out, tp_pad_state) { return tp_pad_prepare(call, state, run, 2, TP_PAD_REFLECT); }
