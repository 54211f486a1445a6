/* A kernel of a user's own, for an operator the portable kernels do not have:
 * tinypte_test::twice.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!), out = 2 * self
 * (float32). kernel_library's `srcs` compiles and registers it (see BUILD.bazel); it uses
 * the portable kernels' helpers (kernel_util.h) like any kernel: prepare checks the call and
 * keeps the element count, run computes. */
#include "kernel_util.h"

typedef struct twice_state {
  uint32_t numel;
} twice_state;

/* Arguments: self, out, the returned out. */
enum { TWICE_SELF, TWICE_OUT };

static tp_status twice_run(const tp_kernel_call *call) {
  const twice_state *st = call->state;
  const float *x = (const float *)call->args[TWICE_SELF]->as.tensor->data;
  float *y = (float *)call->args[TWICE_OUT]->as.tensor->data;
  for (uint32_t i = 0; i < st->numel; i++) {
    y[i] = 2.0f * x[i];
  }
  return TP_OK;
}

TP_KERNEL(tinypte_test, twice, out, twice_state) {
  tp_float_map m;
  TP_TRY(tp_float_map_args(call->args, call->nargs, TWICE_OUT, &m));
  state->numel = m.n;
  *run = twice_run;
  return TP_OK;
}
