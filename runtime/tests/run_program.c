/* tp_run_program: the whole load-and-run path on one in-memory program (see run_program.h). */
#include "run_program.h"

#include <string.h>

#include "host.h"

static tp_status run_method(tp_method *method) {
  for (uint32_t i = 0; i < method->num_inputs; i++) {
    tp_tensor *input;
    if (tp_method_input(method, i, &input) == TP_OK && input->nbytes != 0) {
      memset(input->data, 0, input->nbytes);
    }
  }
  tp_status status = tp_method_execute(method);
  for (uint32_t i = 0; status == TP_OK && i < method->num_outputs; i++) {
    const tp_value *value;
    status = tp_method_output_value(method, i, &value);
  }
  return status;
}

tp_status tp_run_program(const uint8_t *data, size_t size) {
  tp_program program;
  tp_method_requirements req;
  const char *name;
  tp_status status = tp_program_load(&program, data, size);
  if (status == TP_OK) {
    status = tp_program_method_name(&program, 0, &name);
  }
  if (status == TP_OK) {
    status = tp_method_requirements_get(&program, name, &tp_selected_kernels, &req);
  }
  if (status != TP_OK) {
    return status;
  }
  if (req.pool_bytes + tp_host_planned_bytes(&req) > TP_RUN_PROGRAM_MAX_MEMORY) {
    return TP_ERR_ARENA_TOO_SMALL;
  }
  tp_host_memory host;
  tp_host_memory_alloc(&host, &req);
  tp_method method;
  status = tp_method_init(&method, &program, name, &host.memory, &tp_selected_kernels);
  if (status == TP_OK) {
    status = run_method(&method);
  }
  tp_host_memory_free(&host);
  return status;
}
