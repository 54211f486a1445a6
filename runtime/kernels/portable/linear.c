/* aten::linear.out: out[..., j] = sum over k of input[..., k] * weight[j, k], plus bias[j] when
 * given, float32. ExecuTorch's optimized kernels provide it (its portable library does not; the
 * Cortex-M backend's float fallbacks, an LSTM's gates, emit it). Each sum runs over k in
 * increasing order from 0, one rounded product and one rounded add at a time, and the bias is
 * added last, as a matrix product's epilogue does (engines/gemm.h). */
#include "kernel_util.h"

typedef struct linear_state {
  uint32_t rows; /* input rows: the product of its leading dims */
  uint32_t k;    /* in features */
  uint32_t n;    /* out features */
} linear_state;

/* linear.out(Tensor input, Tensor weight, Tensor? bias=None, *, Tensor(a!) out) -> Tensor(a!) */
enum { LIN_INPUT, LIN_WEIGHT, LIN_BIAS, LIN_OUT, LIN_NARGS = 5 };

static tp_status linear_run(const tp_kernel_call *call) {
  const linear_state *st = call->state;
  const float *x = (const float *)call->args[LIN_INPUT]->as.tensor->data;
  const float *w = (const float *)call->args[LIN_WEIGHT]->as.tensor->data;
  const float *bias =
      call->args[LIN_BIAS]->tag == TP_TAG_TENSOR ? (const float *)call->args[LIN_BIAS]->as.tensor->data : NULL;
  float *o = (float *)call->args[LIN_OUT]->as.tensor->data;
  for (uint32_t r = 0; r < st->rows; r++, x += st->k) {
    const float *row = w;
    for (uint32_t j = 0; j < st->n; j++, row += st->k) {
      float sum = 0.0f;
      for (uint32_t i = 0; i < st->k; i++) {
        sum += x[i] * row[i];
      }
      *o++ = bias != NULL ? sum + bias[j] : sum;
    }
  }
  return TP_OK;
}

TP_KERNEL(aten, linear, out, linear_state) {
  tp_tensor *in, *w, *bias, *out, *ret;
  TP_CHECK_ARGS(nargs == LIN_NARGS);
  TP_TRY(tp_arg_tensor(args, nargs, LIN_INPUT, &in));
  TP_TRY(tp_arg_tensor(args, nargs, LIN_WEIGHT, &w));
  TP_TRY(tp_arg_optional_tensor(args, nargs, LIN_BIAS, &bias));
  TP_TRY(tp_arg_tensor(args, nargs, LIN_OUT, &out));
  TP_TRY(tp_arg_tensor(args, nargs, LIN_OUT + 1, &ret));
  if (in->dtype != TP_DTYPE_FLOAT32 || w->dtype != TP_DTYPE_FLOAT32 || out->dtype != TP_DTYPE_FLOAT32 ||
      (bias != NULL && bias->dtype != TP_DTYPE_FLOAT32)) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(in->dim >= 1 && w->dim == 2 && in->sizes[in->dim - 1] == w->sizes[1]);
  const int32_t n = w->sizes[0];
  TP_CHECK_ARGS(bias == NULL || (bias->dim == 1 && bias->sizes[0] == n));
  int32_t expect[TP_MAX_DIM];
  for (uint32_t d = 0; d + 1 < in->dim; d++) {
    expect[d] = in->sizes[d];
  }
  expect[in->dim - 1] = n;
  TP_CHECK_ARGS(tp_shape_is(out, in->dim, expect));
  state->k = (uint32_t)w->sizes[1];
  state->n = (uint32_t)n;
  state->rows = state->k == 0 ? 0u : in->numel / state->k;
  if (state->k == 0) { /* every sum is empty: out is the bias (or 0) per row */
    state->rows = n == 0 ? 0u : out->numel / (uint32_t)n;
  }
  *run = linear_run;
  return TP_OK;
}
