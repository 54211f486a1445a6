/* aten::replication_pad1d.out: self padded in its last 1 dimension(s), repeating the edge element;
 * any dtype (engines/pad.h). */
#include "portable/engines/pad.h"

/* replication_pad1d.out(Tensor self, SymInt[2] padding, *, Tensor(a!) out) -> Tensor(a!): args self,
 * padding, out, out. */
TP_KERNEL(aten, replication_pad1d, out, tp_pad_state) { return tp_pad_prepare(call, state, run, 1, TP_PAD_REPLICATE); }
