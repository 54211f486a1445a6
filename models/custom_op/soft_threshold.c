/* mylib::soft_threshold.out, the kernel of models/custom_op's own operator:
 *     out = sign(x) * max(|x| - threshold, 0)   elementwise, float32.
 *
 * The example of a user's kernel (README, "Writing a kernel for your own operator"): a C file
 * with one TP_KERNEL definition, passed to model_firmware's `srcs`. Its schema, from
 * models/custom_op/model.py:
 *     soft_threshold.out(Tensor x, float threshold, *, Tensor(a!) out) -> Tensor(a!)
 * so the call's arguments are x, threshold, out and the returned out. prepare checks them once
 * (a wrong program fails at init, naming the operator); run only computes.
 */
#include "kernel_util.h"

typedef struct soft_threshold_state {
  float threshold;
} soft_threshold_state;

enum { ARG_X, ARG_THRESHOLD, ARG_OUT, ARG_COUNT = 4 };

static tp_status soft_threshold_run(const tp_kernel_call *call) {
  const soft_threshold_state *state = call->state;
  const tp_tensor *in = call->args[ARG_X]->as.tensor;
  const float *x = in->data;
  float *y = call->args[ARG_OUT]->as.tensor->data;
  const float t = state->threshold;
  for (uint32_t i = 0; i < in->numel; i++) {
    const float v = x[i];
    y[i] = v > t ? v - t : v < -t ? v + t : 0.0f;
  }
  return TP_OK;
}

TP_KERNEL(mylib, soft_threshold, out, soft_threshold_state) {
  tp_float_map map;
  double threshold;
  TP_CHECK_ARGS(call->nargs == ARG_COUNT);
  TP_TRY(tp_float_map_args(call->args, call->nargs, ARG_OUT, &map));
  TP_TRY(tp_arg_scalar(call->args, call->nargs, ARG_THRESHOLD, &threshold));
  TP_CHECK_ARGS(threshold >= 0.0);
  state->threshold = (float)threshold;
  *run = soft_threshold_run;
  return TP_OK;
}
