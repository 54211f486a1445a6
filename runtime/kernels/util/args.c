/* Argument accessors: each checks the value kind and the index (see args.h). */
#include "kernel_util.h"

#include <string.h>

static tp_status arg(tp_value *const *args, uint32_t nargs, uint32_t index, const tp_value **out) {
  if (args == NULL || index >= nargs || args[index] == NULL) {
    return TP_ERR_KERNEL_ARGS;
  }
  *out = args[index];
  return TP_OK;
}

tp_status tp_arg_tensor(tp_value *const *args, uint32_t nargs, uint32_t index, tp_tensor **out) {
  const tp_value *v;
  TP_TRY(arg(args, nargs, index, &v));
  TP_CHECK_ARGS(v->tag == TP_TAG_TENSOR && v->as.tensor != NULL);
  *out = v->as.tensor;
  return TP_OK;
}

tp_status tp_arg_optional_tensor(tp_value *const *args, uint32_t nargs, uint32_t index, tp_tensor **out) {
  const tp_value *v;
  TP_TRY(arg(args, nargs, index, &v));
  if (v->tag == TP_TAG_NONE) {
    *out = NULL;
    return TP_OK;
  }
  return tp_arg_tensor(args, nargs, index, out);
}

tp_status tp_arg_int(tp_value *const *args, uint32_t nargs, uint32_t index, int64_t *out) {
  const tp_value *v;
  TP_TRY(arg(args, nargs, index, &v));
  if (v->tag == TP_TAG_INT) {
    *out = v->as.i;
  } else if (v->tag == TP_TAG_BOOL) {
    *out = v->as.b ? 1 : 0;
  } else {
    return TP_ERR_KERNEL_ARGS;
  }
  return TP_OK;
}

#define I64_TO_F64(i) ((double)(i))
TP_SCALAR_READER(scalar_f64, double, I64_TO_F64)

tp_status tp_arg_scalar(tp_value *const *args, uint32_t nargs, uint32_t index, double *out) {
  const tp_value *v;
  TP_TRY(arg(args, nargs, index, &v));
  return scalar_f64(v, out);
}

/* Defines the accessor `name` of an optional number: None gives *present false and *out 0, anything
 * else is read by `plain` (the accessor of the number, type `type`). */
#define OPTIONAL_NUMBER_ARG(name, type, plain)                                                           \
  tp_status name(tp_value *const *args, uint32_t nargs, uint32_t index, type *out, bool *present) { \
    const tp_value *v;                                                                              \
    TP_TRY(arg(args, nargs, index, &v));                                                            \
    *present = v->tag != TP_TAG_NONE;                                                               \
    if (!*present) {                                                                                \
      *out = 0;                                                                                     \
      return TP_OK;                                                                                 \
    }                                                                                               \
    return plain(args, nargs, index, out);                                                          \
  }

OPTIONAL_NUMBER_ARG(tp_arg_optional_int, int64_t, tp_arg_int)
OPTIONAL_NUMBER_ARG(tp_arg_optional_scalar, double, tp_arg_scalar)

tp_status tp_arg_bool(tp_value *const *args, uint32_t nargs, uint32_t index, bool *out) {
  const tp_value *v;
  TP_TRY(arg(args, nargs, index, &v));
  TP_CHECK_ARGS(v->tag == TP_TAG_BOOL);
  *out = v->as.b;
  return TP_OK;
}

/* Defines the accessor `name` of an argument of kind `kind` that is a run of items: union member
 * `member` holds them (its field `items`, the accessor's parameter of that name) and their count. */
#define LIST_ARG(name, kind, member, items, items_type)                                                    \
  tp_status name(tp_value *const *args, uint32_t nargs, uint32_t index, items_type items, uint32_t *len) { \
    const tp_value *v;                                                                                    \
    TP_TRY(arg(args, nargs, index, &v));                                                                  \
    TP_CHECK_ARGS(v->tag == (kind));                                                                      \
    *items = v->as.member.items;                                                                          \
    *len = v->as.member.len;                                                                              \
    return TP_OK;                                                                                         \
  }

LIST_ARG(tp_arg_int_list, TP_TAG_INT_LIST, int_list, items, const int64_t **)
LIST_ARG(tp_arg_tensor_list, TP_TAG_TENSOR_LIST, tensor_list, items, tp_tensor *const **)
LIST_ARG(tp_arg_string, TP_TAG_STRING, string, chars, const char **)

tp_status tp_arg_optional_int_list(tp_value *const *args, uint32_t nargs, uint32_t index, const int64_t **items,
                                   uint32_t *len) {
  const tp_value *v;
  TP_TRY(arg(args, nargs, index, &v));
  if (v->tag == TP_TAG_NONE) {
    *items = NULL;
    *len = 0;
    return TP_OK;
  }
  return tp_arg_int_list(args, nargs, index, items, len);
}

bool tp_string_equals(const char *chars, uint32_t len, const char *literal) {
  size_t n = strlen(literal);
  return n == len && memcmp(chars, literal, n) == 0;
}

tp_status tp_arg_int_scalar(tp_value *const *args, uint32_t nargs, uint32_t index, int64_t *out) {
  const tp_value *v;
  TP_TRY(arg(args, nargs, index, &v));
  if (v->tag == TP_TAG_DOUBLE) {
    return TP_ERR_KERNEL_DTYPE;
  }
  return tp_arg_int(args, nargs, index, out);
}

bool tp_dtype_int_range(int dtype, int64_t *lo, int64_t *hi) {
  switch (dtype) {
    case TP_DTYPE_UINT8:
      *lo = 0;
      *hi = UINT8_MAX;
      return true;
    case TP_DTYPE_INT8:
      *lo = INT8_MIN;
      *hi = INT8_MAX;
      return true;
    case TP_DTYPE_INT16:
      *lo = INT16_MIN;
      *hi = INT16_MAX;
      return true;
    case TP_DTYPE_INT32:
      *lo = INT32_MIN;
      *hi = INT32_MAX;
      return true;
    case TP_DTYPE_INT64:
      *lo = INT64_MIN;
      *hi = INT64_MAX;
      return true;
    default:
      return false;
  }
}

tp_status tp_arg_scalar_as(tp_value *const *args, uint32_t nargs, uint32_t index, int dtype, void *dst) {
  const tp_value *v;
  TP_TRY(arg(args, nargs, index, &v));
  TP_CHECK_ARGS(v->tag == TP_TAG_INT || v->tag == TP_TAG_DOUBLE || v->tag == TP_TAG_BOOL);
  const bool is_double = v->tag == TP_TAG_DOUBLE;
  const int64_t i = v->tag == TP_TAG_INT ? v->as.i : (v->tag == TP_TAG_BOOL ? (v->as.b ? 1 : 0) : 0);
  const double d = is_double ? v->as.d : (double)i;
  int64_t lo, hi;
  if (tp_dtype_int_range(dtype, &lo, &hi)) {
    int64_t value = i;
    if (is_double) {
      /* Truncation toward zero; the cast is defined only inside [-2^63, 2^63) (false for NaN). */
      TP_CHECK_ARGS(d >= -9223372036854775808.0 && d < 9223372036854775808.0);
      value = (int64_t)d;
    }
    TP_CHECK_ARGS(value >= lo && value <= hi);
    /* The value as the dtype's C type, in the member of that type: every member starts at the
     * union's first byte, so its first tp_dtype_size(dtype) bytes are the element. */
    union {
      uint8_t u8;
      int8_t i8;
      int16_t i16;
      int32_t i32;
      int64_t i64;
    } x;
    switch (dtype) {
      case TP_DTYPE_UINT8:
        x.u8 = (uint8_t)value;
        break;
      case TP_DTYPE_INT8:
        x.i8 = (int8_t)value;
        break;
      case TP_DTYPE_INT16:
        x.i16 = (int16_t)value;
        break;
      case TP_DTYPE_INT32:
        x.i32 = (int32_t)value;
        break;
      default:
        x.i64 = value;
        break;
    }
    memcpy(dst, &x, tp_dtype_size(dtype));
    return TP_OK;
  }
  switch (dtype) {
    case TP_DTYPE_FLOAT32: {
      /* NaN and infinities convert; finite values beyond float range are an error (ATen: overflow). */
      TP_CHECK_ARGS(d != d || d > 1.7976931348623157e308 || d < -1.7976931348623157e308 ||
                    (d <= 3.4028234663852886e38 && d >= -3.4028234663852886e38));
      float x = (float)d;
      memcpy(dst, &x, sizeof x);
      return TP_OK;
    }
    case TP_DTYPE_FLOAT64:
      memcpy(dst, &d, sizeof d);
      return TP_OK;
    case TP_DTYPE_BOOL: {
      uint8_t x = is_double ? (d != 0.0) : (i != 0);
      memcpy(dst, &x, sizeof x);
      return TP_OK;
    }
    default:
      return TP_ERR_KERNEL_DTYPE;
  }
}
