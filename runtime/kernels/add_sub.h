/* Shared implementation of aten::add and aten::sub (see add_sub.c). */
#ifndef TINYPTE_ADD_SUB_H
#define TINYPTE_ADD_SUB_H

#include "kernel_util.h"

/** add.out (sign +1) or sub.out (sign -1). */
tp_status tp_add_sub_out(tp_value *const *args, uint32_t nargs, int sign);
/** add.Scalar_out (sign +1) or sub.Scalar_out (sign -1). */
tp_status tp_add_sub_scalar_out(tp_value *const *args, uint32_t nargs, int sign);

#endif /* TINYPTE_ADD_SUB_H */
