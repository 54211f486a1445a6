/* Argument checks, slicing and the slice loop shared by _softmax and _log_softmax (see
 * engines/softmax.h). */
#include "portable/engines/softmax.h"

tp_status tp_softmax_prepare(const tp_kernel_call *call, tp_softmax_state *s, tp_kernel_run_fn *run,
                             tp_kernel_run_fn routine) {
  tp_value *const *args = call->args;
  const uint32_t nargs = call->nargs;
  TP_CHECK_ARGS(nargs == TP_SOFTMAX_NARGS);
  tp_tensor *in, *out, *ret;
  int64_t dim_arg;
  bool half_to_float;
  TP_TRY(tp_arg_tensor(args, nargs, TP_SOFTMAX_SELF, &in));
  TP_TRY(tp_arg_int(args, nargs, TP_SOFTMAX_DIM, &dim_arg));
  TP_TRY(tp_arg_bool(args, nargs, TP_SOFTMAX_HALF_TO_FLOAT, &half_to_float));
  TP_TRY(tp_arg_tensor(args, nargs, TP_SOFTMAX_OUT, &out));
  TP_TRY(tp_arg_tensor(args, nargs, TP_SOFTMAX_OUT + 1, &ret));
  TP_CHECK_ARGS(!half_to_float); /* "softmax with half to float conversion is not supported on CPU" */
  if (in->dtype != TP_DTYPE_FLOAT32 || out->dtype != TP_DTYPE_FLOAT32) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(tp_same_shape(in, out));
  uint32_t dim;
  TP_TRY(tp_normalize_dim(dim_arg, in->dim, &dim));
  s->size = in->numel == 0 ? 0 : (uint32_t)tp_size(in, dim);
  s->inner = 1;
  for (uint32_t d = dim + 1; d < in->dim; d++) {
    s->inner *= (uint32_t)in->sizes[d];
  }
  s->outer = s->size == 0 ? 0 : in->numel / (s->size * s->inner);
  *run = routine;
  return TP_OK;
}

float tp_softmax_slice_max(const float *x, uint32_t size, uint32_t inner) {
  float m = x[0];
  for (uint32_t k = 1; k < size; k++) {
    const float v = x[(size_t)k * inner];
    m = v < m ? m : v; /* std::max(v, m) */
  }
  return m;
}

tp_status tp_softmax_each_slice(const tp_kernel_call *call, tp_softmax_slice_fn slice) {
  const tp_softmax_state *s = call->state;
  const float *in = (const float *)call->args[TP_SOFTMAX_SELF]->as.tensor->data;
  float *out = (float *)call->args[TP_SOFTMAX_OUT]->as.tensor->data;
  for (uint32_t a = 0; a < s->outer; a++) {
    for (uint32_t b = 0; b < s->inner; b++) {
      const size_t start = (size_t)a * s->size * s->inner + b;
      slice(in + start, out + start, s->size, s->inner, tp_softmax_slice_max(in + start, s->size, s->inner));
    }
  }
  return TP_OK;
}
