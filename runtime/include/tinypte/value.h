/* Values a program computes with: tensors, scalars and lists (ExecuTorch's EValues).
 *
 * A tensor's dim order is contiguous (0..n-1: row-major) or, for 4-D and 5-D tensors,
 * channels-last ((0, 2, 3, 1) and (0, 2, 3, 4, 1): sizes stay N, C, H, W and the data is laid
 * out N, H, W, C), as ExecuTorch's default Cortex-M pipeline and portable kernels use them.
 * Only kernels flagged TP_KERNEL_DIM_ORDERS are given channels-last tensors (tp_method_init
 * refuses the others' calls). Their data points into the program (constants)
 * or into the planned buffers. Most shapes are static, and their sizes point into the program
 * bytes. A tensor the program marks DYNAMIC_BOUND (the out of nonzero or masked_select, and
 * what is computed from it) has `dynamic` set: its sizes live in the state pool, followed by
 * its bound (the program's sizes, which its planned memory holds), and kernels flagged
 * TP_KERNEL_DYNAMIC_SHAPES resize it when they run (tp_tensor_resize).
 */
#ifndef TINYPTE_VALUE_H
#define TINYPTE_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The element types tinypte knows, numbered as ExecuTorch's ScalarType (scalar_type.fbs):
 * X(ID, ScalarType number, bytes per element, name, ScalarType name in scalar_type.fbs).
 * This list is the one table of dtypes: the enum, tp_dtype_size() and tp_dtype_name() are
 * made from it, and python/tinypte/headers/dtypes.py is checked against it (//python/tests:constants_test). */
#define TP_DTYPE_LIST(X)                 \
  X(UINT8, 0, 1, "uint8", BYTE)          \
  X(INT8, 1, 1, "int8", CHAR)            \
  X(INT16, 2, 2, "int16", SHORT)         \
  X(INT32, 3, 4, "int32", INT)           \
  X(INT64, 4, 8, "int64", LONG)          \
  X(FLOAT16, 5, 2, "float16", HALF)      \
  X(FLOAT32, 6, 4, "float32", FLOAT)     \
  X(FLOAT64, 7, 8, "float64", DOUBLE)    \
  X(BOOL, 11, 1, "bool", BOOL)

typedef enum tp_dtype {
#define TP_DTYPE_ENUM_ENTRY(id, number, size, name, fbs_name) TP_DTYPE_##id = number,
  TP_DTYPE_LIST(TP_DTYPE_ENUM_ENTRY)
#undef TP_DTYPE_ENUM_ENTRY
} tp_dtype;

/** @return bytes per element of `dtype`, or 0 for a dtype tinypte does not know. */
size_t tp_dtype_size(int dtype);

/** @return a short name ("float32", "int64", ...) or "?" */
const char *tp_dtype_name(int dtype);

/* Tensors have at most this many dimensions. */
#define TP_MAX_DIM 8

typedef struct tp_tensor {
  void *data;            /* numel * element size bytes; NULL only when numel == 0 */
  const int32_t *sizes;  /* dim entries; in the program, or (dynamic) in the pool, then dim bound entries */
  uint32_t numel;        /* product of sizes */
  uint32_t nbytes;       /* numel * tp_dtype_size(dtype) */
  uint8_t dim;           /* number of dimensions, 0 for a scalar tensor */
  uint8_t dtype;         /* a tp_dtype */
  uint8_t constant : 1;      /* 1: data is a constant in the program (read-only, never changes) */
  uint8_t dynamic : 1;       /* 1: DYNAMIC_BOUND: the sizes change at run time, within the bound */
  uint8_t channels_last : 1; /* 1: dim order (0, 2, .., n-1, 1) (n = 4 or 5), else contiguous */
} tp_tensor;


/* Value kinds: the KernelTypes union of program.fbs (whose tag is one more: Null = 1, Int = 2, ...). */
typedef enum tp_tag {
  TP_TAG_NONE = 0,
  TP_TAG_INT = 1,
  TP_TAG_BOOL = 2,
  TP_TAG_DOUBLE = 3,
  TP_TAG_TENSOR = 4,
  TP_TAG_STRING = 5,
  TP_TAG_INT_LIST = 6,
  TP_TAG_DOUBLE_LIST = 7,
  TP_TAG_BOOL_LIST = 8,
  TP_TAG_TENSOR_LIST = 9,
  TP_TAG_OPTIONAL_TENSOR_LIST = 10
} tp_tag;

typedef struct tp_value {
  union {
    int64_t i;
    double d;
    bool b;
    tp_tensor *tensor;
    struct {
      const char *chars; /* not NUL-terminated */
      uint32_t len;
    } string;
    struct {
      const int64_t *items;
      uint32_t len;
    } int_list;
    struct {
      const double *items;
      uint32_t len;
    } double_list;
    struct {
      const uint8_t *items; /* 0 or 1 */
      uint32_t len;
    } bool_list;
    struct {
      tp_tensor *const *items; /* for TP_TAG_OPTIONAL_TENSOR_LIST, NULL items are None */
      uint32_t len;
    } tensor_list;
  } as;
  uint8_t tag; /* a tp_tag */
} tp_value;

#endif /* TINYPTE_VALUE_H */
