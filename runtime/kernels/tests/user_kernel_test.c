/* A kernel passed in kernel_library's `srcs` is compiled into the library, registered next
 * to the portable kernels, and runs when looked up by its operator name. */
#include <stdio.h>

#include "tinypte/kernel.h"

static const tp_kernel *find(const char *name, const char *overload) {
  return tp_kernel_find(&tp_selected_kernels, name, overload);
}

int main(void) {
  const tp_kernel *twice = find("tinypte_test::twice", "out");
  if (twice == NULL || find("aten::relu", "out") == NULL) {
    printf("user_kernel_test: FAIL the registry lacks tinypte_test::twice.out or aten::relu.out\n");
    return 1;
  }
  float x[3] = {1.0f, -2.5f, 0.25f};
  float y[3] = {0};
  const int32_t sizes[1] = {3};
  tp_tensor in = {x, sizes, 3, sizeof x, 1, TP_DTYPE_FLOAT32, 0, 0, 0};
  tp_tensor out = {y, sizes, 3, sizeof y, 1, TP_DTYPE_FLOAT32, 0, 0, 0};
  tp_value values[3] = {{.as.tensor = &in, .tag = TP_TAG_TENSOR},
                        {.as.tensor = &out, .tag = TP_TAG_TENSOR},
                        {.as.tensor = &out, .tag = TP_TAG_TENSOR}};
  tp_value *args[3] = {&values[0], &values[1], &values[2]};
  uint64_t state[4] = {0};
  tp_kernel_call call = {args, 3, state, NULL};
  tp_kernel_run_fn run = NULL;
  tp_status status = twice->state_size <= sizeof state ? tp_kernel_prepare(twice, &call, &run) : TP_ERR_INVALID_ARGUMENT;
  if (status == TP_OK) {
    status = run(&call);
  }
  if (status != TP_OK || y[0] != 2.0f || y[1] != -5.0f || y[2] != 0.5f) {
    printf("user_kernel_test: FAIL %s, out = [%g, %g, %g]\n", tp_status_name(status), y[0], y[1], y[2]);
    return 1;
  }
  printf("user_kernel_test: tinypte_test::twice.out from the user's srcs ran; %u kernels registered\n",
         tp_selected_kernels.count);
  return 0;
}
