/* Explanations of status codes (kept out of the runtime so firmware does not carry them). */
#include "status_message.h"

const char *tp_status_message(tp_status status) {
  switch (status) {
    case TP_OK:
      return "success";
    case TP_ERR_INVALID_ARGUMENT:
      return "the runtime API was called with a NULL pointer, an index out of range, or out of order";
    case TP_ERR_NOT_A_PROGRAM:
      return "not an ExecuTorch program: no 'ET' flatbuffer identifier at byte 4";
    case TP_ERR_VERSION:
      return "an ExecuTorch program of another format version; tinypte reads ET12 (executorch 1.x): re-export it";
    case TP_ERR_CORRUPT:
      return "the program is corrupt or truncated: an offset, length, index or enum is out of bounds";
    case TP_ERR_UNSUPPORTED:
      return "the program uses a feature tinypte does not run (delegates, dynamic shapes, non-contiguous "
             "tensors, unplanned inputs)";
    case TP_ERR_METHOD_NOT_FOUND:
      return "the program has no method of that name";
    case TP_ERR_OPERATOR_MISSING:
      return "the program calls an operator that has no kernel linked in";
    case TP_ERR_POOL_TOO_SMALL:
      return "the state pool is smaller than tp_method_requirements_get() reported";
    case TP_ERR_ARENA_TOO_SMALL:
      return "a planned buffer is missing or smaller than the program's memory plan";
    case TP_ERR_INPUT_MISMATCH:
      return "the input does not match the program: wrong index, byte size or dtype";
    case TP_ERR_KERNEL_ARGS:
      return "a kernel rejected its arguments (count, kinds, shapes or output size)";
    case TP_ERR_KERNEL_DTYPE:
      return "a kernel has no implementation for these dtypes";
    case TP_ERR_MISALIGNED:
      return "program bytes, a buffer or a constant are not aligned as required (16 bytes for the program)";
    case TP_ERR_STEP_LIMIT:
      return "execution ran more instructions than the step limit (a control-flow loop that does not end)";
  }
  return "unknown status code";
}
