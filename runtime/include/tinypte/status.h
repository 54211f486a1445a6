/* Status codes returned by every tinypte runtime function and kernel.
 *
 * Nothing in the runtime asserts, aborts or allocates: every failure comes back as one of
 * these codes. runtime/README.md explains each one and what to do about it.
 */
#ifndef TINYPTE_STATUS_H
#define TINYPTE_STATUS_H

typedef enum tp_status {
  TP_OK = 0,
  TP_ERR_INVALID_ARGUMENT = 1, /* API misuse: NULL pointer, index out of range, wrong call order */
  TP_ERR_NOT_A_PROGRAM = 2,    /* no "ET" flatbuffer identifier at byte 4, or too short */
  TP_ERR_VERSION = 3,          /* an ExecuTorch program of another format version (not ET12) */
  TP_ERR_CORRUPT = 4,          /* an offset, length, index or enum in the file is out of bounds */
  TP_ERR_UNSUPPORTED = 5,      /* a valid program using a feature tinypte lacks (delegates, dynamic shapes, ...) */
  TP_ERR_METHOD_NOT_FOUND = 6, /* no execution plan with that name */
  TP_ERR_OPERATOR_MISSING = 7, /* the program calls an operator with no kernel linked in */
  TP_ERR_POOL_TOO_SMALL = 8,   /* the state pool is smaller than tp_method_requirements() said */
  TP_ERR_ARENA_TOO_SMALL = 9,  /* a planned buffer is missing or smaller than the memory plan */
  TP_ERR_INPUT_MISMATCH = 10,  /* input index, byte size or dtype does not match the program */
  TP_ERR_KERNEL_ARGS = 11,     /* a kernel rejected its arguments: count, kinds, shapes, out size */
  TP_ERR_KERNEL_DTYPE = 12,    /* a kernel has no implementation for these dtypes */
  TP_ERR_MISALIGNED = 13,      /* program bytes or a buffer are not aligned as required */
  TP_ERR_STEP_LIMIT = 14       /* execution ran more instructions than the limit (a jump loop) */
} tp_status;

/** @return the code's name, e.g. "TP_ERR_CORRUPT"; "TP_ERR_?" for unknown values. */
const char *tp_status_name(tp_status status);

/* Return the status of `expr` from the enclosing function when it is not TP_OK. Used by
 * the runtime and the kernels. Host debugging: compile with -DTP_TRACE and every failure
 * prints the file and line it passes through. */
#ifdef TP_TRACE
#include <stdio.h>
#define TP_TRACE_FAILURE(status) fprintf(stderr, "tinypte: %s at %s:%d\n", tp_status_name(status), __FILE__, __LINE__)
#else
#define TP_TRACE_FAILURE(status) ((void)0)
#endif

#define TP_TRY(expr)                    \
  do {                                  \
    tp_status tp_try_status_ = (expr);  \
    if (tp_try_status_ != TP_OK) {      \
      TP_TRACE_FAILURE(tp_try_status_); \
      return tp_try_status_;            \
    }                                   \
  } while (0)

#endif /* TINYPTE_STATUS_H */
