/* A kernel call's arguments, typed: each accessor checks that args[index] exists and is of the
 * right kind (TP_ERR_KERNEL_ARGS otherwise). Prepare functions read their arguments with these. */
#ifndef TINYPTE_KERNELS_UTIL_ARGS_H
#define TINYPTE_KERNELS_UTIL_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tinypte/kernel.h"

/** A tensor argument. */
tp_status tp_arg_tensor(tp_value *const *args, uint32_t nargs, uint32_t index, tp_tensor **out);
/** An optional tensor argument: *out is NULL for None. */
tp_status tp_arg_optional_tensor(tp_value *const *args, uint32_t nargs, uint32_t index, tp_tensor **out);
/** An int argument (Int; Bool counts as 0/1). */
tp_status tp_arg_int(tp_value *const *args, uint32_t nargs, uint32_t index, int64_t *out);
/** An optional int: *present is false for None. */
tp_status tp_arg_optional_int(tp_value *const *args, uint32_t nargs, uint32_t index, int64_t *out, bool *present);
/** A Scalar argument (Int, Double or Bool) as a double. */
tp_status tp_arg_scalar(tp_value *const *args, uint32_t nargs, uint32_t index, double *out);

/* Defines `static tp_status name(const tp_value *v, type *out)`: the Scalar value v (Int, Double
 * or Bool) as `type`: an Int converted by `from_int` (a function or macro of an int64_t), a Double
 * cast, a Bool 1 or 0; TP_ERR_KERNEL_ARGS for another kind of value. tp_arg_scalar's reader is
 * the double one; a kernel that wants the value in its own type (addmm: float, rounded once)
 * defines its own. */
#define TP_SCALAR_READER(name, type, from_int)          \
  static tp_status name(const tp_value *v, type *out) { \
    switch (v->tag) {                                   \
      case TP_TAG_INT:                                  \
        *out = from_int(v->as.i);                       \
        return TP_OK;                                   \
      case TP_TAG_DOUBLE:                               \
        *out = (type)v->as.d;                           \
        return TP_OK;                                   \
      case TP_TAG_BOOL:                                 \
        *out = v->as.b ? (type)1 : (type)0;             \
        return TP_OK;                                   \
      default:                                          \
        return TP_ERR_KERNEL_ARGS;                      \
    }                                                   \
  }

/** A bool argument. */
tp_status tp_arg_bool(tp_value *const *args, uint32_t nargs, uint32_t index, bool *out);
/** An int list argument (int[] in the schema). */
tp_status tp_arg_int_list(tp_value *const *args, uint32_t nargs, uint32_t index, const int64_t **items,
                          uint32_t *len);
/** An optional int list: *items NULL and *len 0 for None. */
tp_status tp_arg_optional_int_list(tp_value *const *args, uint32_t nargs, uint32_t index, const int64_t **items,
                                   uint32_t *len);
/** A tensor list argument (Tensor[]). */
tp_status tp_arg_tensor_list(tp_value *const *args, uint32_t nargs, uint32_t index, tp_tensor *const **items,
                             uint32_t *len);
/** A string argument (e.g. gelu's approximate="tanh"); compare with tp_string_equals. */
tp_status tp_arg_string(tp_value *const *args, uint32_t nargs, uint32_t index, const char **chars, uint32_t *len);
bool tp_string_equals(const char *chars, uint32_t len, const char *literal);

/** An optional Scalar argument (Scalar? in the schema) as a double: *present is false for None. */
tp_status tp_arg_optional_scalar(tp_value *const *args, uint32_t nargs, uint32_t index, double *out, bool *present);
/** A Scalar argument that must be integral (Int or Bool), e.g. alpha for integer tensors: exact int64.
 *  TP_ERR_KERNEL_DTYPE for a Double (it would promote an integer computation to float). */
tp_status tp_arg_int_scalar(tp_value *const *args, uint32_t nargs, uint32_t index, int64_t *out);
/** Store the Scalar argument as one element of `dtype` at `dst` (tp_dtype_size(dtype) bytes), as a
 *  C cast would: Double to integer truncates toward zero, anything non-zero is true for bool.
 *  TP_ERR_KERNEL_ARGS when the value does not fit the dtype (NaN/inf/out of range for integers,
 *  finite values beyond float range); TP_ERR_KERNEL_DTYPE for dtypes without a C type (float16). */
tp_status tp_arg_scalar_as(tp_value *const *args, uint32_t nargs, uint32_t index, int dtype, void *dst);

/** The range of integer dtype `dtype` (uint8, int8, int16, int32, int64) in *lo, *hi; false
 *  for other dtypes. */
bool tp_dtype_int_range(int dtype, int64_t *lo, int64_t *hi);

#endif /* TINYPTE_KERNELS_UTIL_ARGS_H */
