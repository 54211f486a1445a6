/* aten::_to_copy.out: a copy of self converted to out's dtype (Tensor.to(dtype) and .clone() in
 * programs exported without dim-order operators). Any pair of float32, int8, uint8, int16, int32,
 * int64 and bool: the same dtype is a byte copy; otherwise each element converts as
 * elem.h's loads and stores do (floats to integers truncate toward zero). memory_format must be
 * None or contiguous (tinypte tensors are contiguous). */
#include <string.h>

#include "elem.h"
#include "kernel_util.h"

typedef struct to_copy_state {
  uint32_t numel;
  uint8_t from, to; /* dtypes of self and out */
} to_copy_state;

/* _to_copy.out(Tensor self, *, bool non_blocking=False, MemoryFormat? memory_format=None,
 * Tensor(a!) out) -> Tensor(a!): args self, non_blocking, memory_format, out, out. */
enum { TO_COPY_SELF, TO_COPY_NON_BLOCKING, TO_COPY_FORMAT, TO_COPY_OUT };

/* MemoryFormat numbering of ExecuTorch's program schema: 0 contiguous (the only one accepted). */
enum { MEMORY_FORMAT_CONTIGUOUS = 0 };

static tp_status to_copy_same(const tp_kernel_call *call) {
  const tp_tensor *in = call->args[TO_COPY_SELF]->as.tensor;
  tp_tensor *out = call->args[TO_COPY_OUT]->as.tensor;
  if (in->nbytes != 0 && in->data != out->data) {
    memmove(out->data, in->data, in->nbytes);
  }
  return TP_OK;
}

static tp_status to_copy_convert(const tp_kernel_call *call) {
  const to_copy_state *st = call->state;
  const void *x = call->args[TO_COPY_SELF]->as.tensor->data;
  void *y = call->args[TO_COPY_OUT]->as.tensor->data;
  const bool exact_int = st->from != TP_DTYPE_FLOAT32;
  for (uint32_t i = 0; i < st->numel; i++) {
    if (exact_int) {
      tp_elem_store_i64(y, st->to, i, tp_elem_load_i64(x, st->from, i));
    } else {
      tp_elem_store_f64(y, st->to, i, tp_elem_load_f64(x, st->from, i));
    }
  }
  return TP_OK;
}

TP_KERNEL(aten, _to_copy, out, to_copy_state) {
  tp_tensor *in, *out;
  int64_t format;
  bool has_format;
  TP_TRY(tp_elementwise_args(call, TO_COPY_OUT, &in, &out));
  TP_TRY(tp_arg_optional_int(call->args, call->nargs, TO_COPY_FORMAT, &format, &has_format));
  TP_CHECK_ARGS(!has_format || format == MEMORY_FORMAT_CONTIGUOUS);
  if (!tp_dtype_is_real_or_bool(in->dtype) || !tp_dtype_is_real_or_bool(out->dtype)) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(tp_same_shape(in, out));
  state->numel = out->numel;
  state->from = in->dtype;
  state->to = out->dtype;
  *run = in->dtype == out->dtype ? to_copy_same : to_copy_convert;
  return TP_OK;
}
