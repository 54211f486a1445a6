/* aten::full.out: out (of shape `size`) filled with fill_value cast to out's dtype (any dtype
 * with a C type: float32/64, int8..int64, uint8, bool; integers need a value that fits).
 * prepare checks and converts the value once; run fills. */
#include "kernel_util.h"

typedef struct full_state {
  uint8_t value[8]; /* fill_value as one out element */
  uint32_t numel;   /* out elements */
  uint32_t esize;   /* bytes per element */
} full_state;

/* full.out(SymInt[] size, Scalar fill_value, *, Tensor(a!) out) -> Tensor(a!): args size, fill_value, out, out. */
enum { FULL_SIZE, FULL_VALUE, FULL_OUT, FULL_NARGS = 4 };

static tp_status full_run(const tp_kernel_call *call) {
  const full_state *st = call->state;
  tp_fill(call->args[FULL_OUT]->as.tensor->data, st->numel, st->value, st->esize);
  return TP_OK;
}

TP_KERNEL(aten, full, out, full_state) {
  TP_CHECK_ARGS(nargs == FULL_NARGS);
  tp_tensor *out, *ret;
  const int64_t *size;
  uint32_t len;
  TP_TRY(tp_arg_int_list(args, nargs, FULL_SIZE, &size, &len));
  TP_TRY(tp_arg_tensor(args, nargs, FULL_OUT, &out));
  TP_TRY(tp_arg_tensor(args, nargs, FULL_OUT + 1, &ret));
  const size_t esize = tp_dtype_size(out->dtype);
  if (esize == 0 || esize > sizeof state->value) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_TRY(tp_arg_scalar_as(args, nargs, FULL_VALUE, out->dtype, state->value));
  TP_CHECK_ARGS(len <= TP_MAX_DIM);
  int32_t sizes[TP_MAX_DIM];
  for (uint32_t d = 0; d < len; d++) {
    TP_CHECK_ARGS(size[d] >= 0 && size[d] <= INT32_MAX);
    sizes[d] = (int32_t)size[d];
  }
  TP_CHECK_ARGS(tp_shape_is(out, len, sizes));
  state->numel = out->numel;
  state->esize = (uint32_t)esize;
  *run = full_run;
  return TP_OK;
}
