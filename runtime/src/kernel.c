/* Kernel lookup in a registry, and preparing a kernel (see tinypte/kernel.h). */
#include <string.h>

#include "tinypte/kernel.h"

const tp_kernel *tp_kernel_find(const tp_kernel_registry *registry, const char *name, const char *overload) {
  for (uint32_t k = 0; k < registry->count; k++) {
    const tp_kernel *kernel = registry->kernels[k];
    if (strcmp(kernel->name, name) == 0 && strcmp(kernel->overload, overload) == 0) {
      return kernel;
    }
  }
  return NULL;
}

tp_status tp_kernel_prepare(const tp_kernel *kernel, const tp_kernel_call *call, tp_kernel_run_fn *run) {
  memset(call->state, 0, kernel->state_size);
  *run = NULL;
  tp_status status = kernel->prepare(call, run);
  return status == TP_OK && *run == NULL ? TP_ERR_INVALID_ARGUMENT : status;
}
