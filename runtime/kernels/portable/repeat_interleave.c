/* aten::repeat_interleave.Tensor_out: out = 0 repeated repeats[0] times, 1 repeated repeats[1]
 * times, ... (the index form; int64 or int32 repeats and out). The out's length is fixed by the
 * program (output_size); repeats that do not add up to it, or are negative, fail the run with
 * TP_ERR_INDEX_RANGE. */
#include "util/elem.h"
#include "kernel_util.h"

typedef struct repeat_interleave_state {
  uint32_t count, numel; /* repeats' and out's elements */
  uint8_t in, out;       /* dtypes */
} repeat_interleave_state;

/* repeat_interleave.Tensor_out(Tensor repeats, *, SymInt? output_size=None, Tensor(a!) out) -> Tensor(a!):
 * args repeats, output_size, out, out. */
enum { RI_REPEATS, RI_OUTPUT_SIZE, RI_OUT };

static tp_status repeat_interleave_run(const tp_kernel_call *call) {
  const repeat_interleave_state *st = call->state;
  const void *r = call->args[RI_REPEATS]->as.tensor->data;
  void *o = call->args[RI_OUT]->as.tensor->data;
  uint32_t k = 0;
  for (uint32_t i = 0; i < st->count; i++) {
    const int64_t n = tp_elem_load_i64(r, st->in, i);
    if (n < 0 || n > (int64_t)(st->numel - k)) {
      return TP_ERR_INDEX_RANGE;
    }
    for (int64_t j = 0; j < n; j++) {
      tp_elem_store_i64(o, st->out, k++, i);
    }
  }
  return k == st->numel ? TP_OK : TP_ERR_INDEX_RANGE;
}

TP_KERNEL(aten, repeat_interleave, Tensor_out, repeat_interleave_state) {
  tp_tensor *repeats, *out;
  int64_t size;
  bool has_size;
  TP_TRY(tp_elementwise_args(call, RI_OUT, &repeats, &out));
  TP_TRY(tp_arg_optional_int(call->args, call->nargs, RI_OUTPUT_SIZE, &size, &has_size));
  const bool int_index = repeats->dtype == TP_DTYPE_INT64 || repeats->dtype == TP_DTYPE_INT32;
  if (!int_index || repeats->dtype != out->dtype) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(repeats->dim <= 1 && out->dim == 1 && (!has_size || size == out->sizes[0]));
  state->count = repeats->numel;
  state->numel = out->numel;
  state->in = (uint8_t)repeats->dtype;
  state->out = (uint8_t)out->dtype;
  *run = repeat_interleave_run;
  return TP_OK;
}
