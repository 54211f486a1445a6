/* aten::floor_divide.out: out = self // other (the quotient rounded toward minus infinity),
 * elementwise with broadcasting and type promotion; integers fail the run with
 * TP_ERR_DIVISION_BY_ZERO on a zero divisor, a float zero divisor gives +-inf. */
#include "portable/engines/binary.h"
#include "portable/engines/floor_divide.h"

static const tp_binary_fns floor_divide_fns = {TP_BINARY_ARITH, tp_floor_divide_f32, tp_floor_divide_i64, true};

TP_BINARY_KERNEL(aten, floor_divide, out, floor_divide_fns)
