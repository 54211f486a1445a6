/* Element sizes and names of the tensor dtypes tinypte knows (from TP_DTYPE_LIST). */
#include "tinypte/value.h"

size_t tp_dtype_size(int dtype) {
  switch (dtype) {
#define TP_DTYPE_SIZE_CASE(id, number, size, name, fbs_name) \
  case TP_DTYPE_##id:                                         \
    return size;
    TP_DTYPE_LIST(TP_DTYPE_SIZE_CASE)
#undef TP_DTYPE_SIZE_CASE
    default:
      return 0;
  }
}

const char *tp_dtype_name(int dtype) {
  switch (dtype) {
#define TP_DTYPE_NAME_CASE(id, number, size, name, fbs_name) \
  case TP_DTYPE_##id:                                         \
    return name;
    TP_DTYPE_LIST(TP_DTYPE_NAME_CASE)
#undef TP_DTYPE_NAME_CASE
    default:
      return "?";
  }
}
