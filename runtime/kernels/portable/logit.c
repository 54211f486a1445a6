/* aten::logit.out: out = log(x / (1 - x)) elementwise, with x first clamped to [eps, 1 - eps]
 * when eps is given. self any real dtype or bool (converted to float), out float32; the clamp
 * compares in double and stores in float, as ExecuTorch's portable kernel does. */
#include <math.h>

#include "util/elem.h"
#include "kernel_util.h"

typedef struct logit_state {
  double eps;     /* when has_eps */
  uint32_t numel;
  uint8_t in;     /* self's dtype */
  bool has_eps;
} logit_state;

/* logit.out(Tensor self, float? eps=None, *, Tensor(a!) out) -> Tensor(a!): args self, eps, out, out. */
enum { LOGIT_SELF, LOGIT_EPS, LOGIT_OUT };

static tp_status logit_run(const tp_kernel_call *call) {
  const logit_state *st = call->state;
  const void *x = call->args[LOGIT_SELF]->as.tensor->data;
  float *o = (float *)call->args[LOGIT_OUT]->as.tensor->data;
  const double lo = st->eps, hi = 1.0 - st->eps;
  for (uint32_t i = 0; i < st->numel; i++) {
    float v = (float)tp_elem_load_f64(x, st->in, i);
    if (st->has_eps) {
      if (v < lo) {
        v = (float)lo;
      } else if (v > hi) {
        v = (float)hi;
      }
    }
    o[i] = logf(v / (1.0f - v));
  }
  return TP_OK;
}

TP_KERNEL(aten, logit, out, logit_state) {
  tp_tensor *in, *out;
  TP_TRY(tp_elementwise_args(call, LOGIT_OUT, &in, &out));
  TP_CHECK_ARGS(tp_same_shape(in, out));
  if (!tp_dtype_is_real_or_bool(in->dtype) || out->dtype != TP_DTYPE_FLOAT32) {
    return TP_ERR_KERNEL_DTYPE;
  }
  TP_TRY(tp_arg_optional_scalar(call->args, call->nargs, LOGIT_EPS, &state->eps, &state->has_eps));
  state->numel = out->numel;
  state->in = (uint8_t)in->dtype;
  *run = logit_run;
  return TP_OK;
}
