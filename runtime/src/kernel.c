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

/* A legacy kernel's state holds the kernel function; running calls it with the arguments. */
static tp_status run_legacy(const tp_kernel_call *call) {
  tp_kernel_fn fn;
  memcpy(&fn, call->state, sizeof fn);
  return fn(call->args, call->nargs);
}

tp_status tp_kernel_prepare(const tp_kernel *kernel, const tp_kernel_call *call, tp_kernel_run_fn *run) {
  if (kernel->prepare != NULL) {
    return kernel->prepare(call, run);
  }
  if (kernel->legacy == NULL || kernel->state_size < sizeof kernel->legacy) {
    return TP_ERR_INVALID_ARGUMENT;
  }
  memcpy(call->state, &kernel->legacy, sizeof kernel->legacy);
  *run = run_legacy;
  return TP_OK;
}
