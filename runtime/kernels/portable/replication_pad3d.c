/* aten::replication_pad3d.out: self padded in its last 3 dimension(s), repeating the edge element;
 * any dtype (engines/pad.h). */
#include "portable/engines/pad.h"

/* replication_pad3d.out(Tensor self, SymInt[6] padding, *, Tensor(a!) out) -> Tensor(a!): args self,
 * padding, out, out. */
TP_KERNEL(aten, replication_pad3d, out, tp_pad_state) { return tp_pad_prepare(call, state, run, 3, TP_PAD_REPLICATE); }
