/* aten::logical_xor.out: out = whether exactly one is non-zero, elementwise with broadcasting;
 * operands of any real dtype or bool, out of any real dtype or bool (usually bool) holding 1 or 0. */
#include "portable/engines/binary.h"

static float logical_xor_f32(float a, float b) { return (a != 0.0f) != (b != 0.0f) ? 1.0f : 0.0f; }

static int64_t logical_xor_int(int64_t a, int64_t b) { return (a != 0) != (b != 0); }

static const tp_binary_fns logical_xor_fns = {TP_BINARY_PREDICATE, logical_xor_f32, logical_xor_int, false};

TP_BINARY_KERNEL(aten, logical_xor, out, logical_xor_fns)
