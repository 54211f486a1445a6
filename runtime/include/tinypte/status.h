/* Status codes returned by every tinypte runtime function and kernel.
 *
 * Nothing in the runtime asserts, aborts or allocates: every failure comes back as one of
 * these codes.
 */
#ifndef TINYPTE_STATUS_H
#define TINYPTE_STATUS_H

/* Every status: X(NAME, code, what it means and what to do). This list is the one source
 * of the codes: the enum, tp_status_name(), the host tools' tp_status_message() and the
 * table in runtime/README.md (checked by //python/tests:constants_test) come from it. */
#define TP_STATUS_LIST(X)                                                                                         \
  X(TP_OK, 0, "success")                                                                                          \
  X(TP_ERR_INVALID_ARGUMENT, 1,                                                                                   \
    "the API was called with a NULL pointer, an index out of range, or before tp_method_init succeeded")         \
  X(TP_ERR_NOT_A_PROGRAM, 2, "no 'ET..' identifier at byte 4: the bytes are not an ExecuTorch program")           \
  X(TP_ERR_VERSION, 3,                                                                                            \
    "an ExecuTorch program of another format version (not ET12): re-export it with executorch 1.x")              \
  X(TP_ERR_CORRUPT, 4,                                                                                            \
    "an offset, length, index or enum in the file is out of bounds: the file is truncated or damaged")           \
  X(TP_ERR_UNSUPPORTED, 5,                                                                                        \
    "a valid program that uses something tinypte does not run: a dynamic tensor passed to "   \
    "a kernel that cannot resize (method->failed_operator), unbounded dynamic shapes, dim orders other than "      \
    "contiguous and channels-last, " \
    "unplanned inputs, more than 8 memory ids")                                                                   \
  X(TP_ERR_METHOD_NOT_FOUND, 6, "the program has no method of that name")                                         \
  X(TP_ERR_OPERATOR_MISSING, 7,                                                                                   \
    "no kernel is linked for an operator, or no backend for a delegate (method->failed_operator names it); "      \
    "kernel_library() catches this at build time")                                                                                              \
  X(TP_ERR_POOL_TOO_SMALL, 8, "the state pool is smaller than tp_method_requirements_get() reports")              \
  X(TP_ERR_ARENA_TOO_SMALL, 9, "a planned buffer is missing or smaller than the memory plan")                     \
  X(TP_ERR_INPUT_MISMATCH, 10, "an input's index, byte size, dtype or shape does not match the program")          \
  X(TP_ERR_KERNEL_ARGS, 11, "a kernel rejected its arguments: count, kinds, shapes or output size")               \
  X(TP_ERR_KERNEL_DTYPE, 12, "a kernel has no implementation for those dtypes")                                   \
  X(TP_ERR_MISALIGNED, 13,                                                                                        \
    "the program is not 16-byte aligned, or a buffer or constant is misaligned for its type")                    \
  X(TP_ERR_STEP_LIMIT, 14,                                                                                        \
    "execution ran more instructions than method->step_limit (a control-flow loop that does not end)")           \
  X(TP_ERR_INDEX_RANGE, 15,                                                                                       \
    "an index tensor (embedding, gather, ...) holds a value outside the dimension it indexes")        \
  X(TP_ERR_DIVISION_BY_ZERO, 16,                                                                                  \
    "an integer division, remainder or floor division by zero (ATen raises; there is no result)")                \
  X(TP_ERR_DIM_ORDER, 17,                                                                                         \
    "a channels-last tensor reaches a kernel that reads only contiguous ones (method->failed_operator names "    \
    "it): export with contiguous tensors there, or use a kernel flagged TP_KERNEL_DIM_ORDERS")                   \
  X(TP_ERR_WORKER, 18,                                                                                            \
    "the second core did not finish its half of a kernel call in time (the board's core-1 timeout): it "          \
    "crashed or never started; build with the board's cores=1 to run on one core")                               \
  X(TP_ERR_DELEGATE, 19,                                                                                          \
    "a backend delegate failed: its blob is for another configuration, or its accelerator reported an error "    \
    "(method->failed_operator names the backend; tp_method_failure_reason() gives its one-line reason)")

typedef enum tp_status {
#define TP_STATUS_ENUM_ENTRY(name, code, message) name = code,
  TP_STATUS_LIST(TP_STATUS_ENUM_ENTRY)
#undef TP_STATUS_ENUM_ENTRY
} tp_status;

/* How many statuses there are; their codes are 0 .. TP_STATUS_COUNT - 1. */
enum {
#define TP_STATUS_PLUS_ONE(name, code, message) +1
  TP_STATUS_COUNT = 0 TP_STATUS_LIST(TP_STATUS_PLUS_ONE)
#undef TP_STATUS_PLUS_ONE
};

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
