/* aten::_pdist_forward.out: the p-norm distances between every pair of rows i < j of self (N, M),
 * in order (0, 1), (0, 2), ..., (N - 2, N - 1): N (N - 1) / 2 values; float32 (engines/distance.h). */
#include "portable/engines/distance.h"
#include "kernel_util.h"

typedef struct pdist_state {
  double p;
  uint32_t n, m;
} pdist_state;

/* _pdist_forward.out(Tensor self, float p=2, *, Tensor(a!) out) -> Tensor(a!): args self, p, out, out. */
enum { PDIST_SELF, PDIST_P, PDIST_OUT };

static tp_status pdist_run(const tp_kernel_call *call) {
  const pdist_state *st = call->state;
  const float *x = (const float *)call->args[PDIST_SELF]->as.tensor->data;
  float *o = (float *)call->args[PDIST_OUT]->as.tensor->data;
  for (uint32_t i = 0; i < st->n; i++) {
    for (uint32_t j = i + 1; j < st->n; j++) {
      *o++ = tp_distance(x + (size_t)i * st->m, x + (size_t)j * st->m, st->m, st->p);
    }
  }
  return TP_OK;
}

TP_KERNEL(aten, _pdist_forward, out, pdist_state) {
  tp_tensor *in, *out;
  TP_TRY(tp_elementwise_args(call, PDIST_OUT, &in, &out));
  TP_TRY(tp_arg_scalar(call->args, call->nargs, PDIST_P, &state->p));
  if (in->dtype != TP_DTYPE_FLOAT32 || out->dtype != TP_DTYPE_FLOAT32) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_CHECK_ARGS(in->dim == 2 && out->dim == 1 && state->p >= 0.0);
  state->n = (uint32_t)in->sizes[0];
  state->m = (uint32_t)in->sizes[1];
  TP_CHECK_ARGS((uint64_t)out->sizes[0] == (uint64_t)state->n * (state->n > 0 ? state->n - 1 : 0) / 2);
  *run = pdist_run;
  return TP_OK;
}
