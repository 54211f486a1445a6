/* Element sizes and names of the tensor dtypes tinypte knows. */
#include "tinypte/value.h"

size_t tp_dtype_size(int dtype) {
  switch (dtype) {
    case TP_DTYPE_UINT8:
    case TP_DTYPE_INT8:
    case TP_DTYPE_BOOL:
      return 1;
    case TP_DTYPE_INT16:
    case TP_DTYPE_FLOAT16:
      return 2;
    case TP_DTYPE_INT32:
    case TP_DTYPE_FLOAT32:
      return 4;
    case TP_DTYPE_INT64:
    case TP_DTYPE_FLOAT64:
      return 8;
    default:
      return 0;
  }
}

const char *tp_dtype_name(int dtype) {
  switch (dtype) {
    case TP_DTYPE_UINT8:
      return "uint8";
    case TP_DTYPE_INT8:
      return "int8";
    case TP_DTYPE_INT16:
      return "int16";
    case TP_DTYPE_INT32:
      return "int32";
    case TP_DTYPE_INT64:
      return "int64";
    case TP_DTYPE_FLOAT16:
      return "float16";
    case TP_DTYPE_FLOAT32:
      return "float32";
    case TP_DTYPE_FLOAT64:
      return "float64";
    case TP_DTYPE_BOOL:
      return "bool";
    default:
      return "?";
  }
}
