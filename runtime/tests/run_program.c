/* tp_run_program: the whole load-and-run path on one in-memory program (see run_program.h). */
#include "run_program.h"

#include <stdlib.h>
#include <string.h>

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
    status = tp_method_requirements_get(&program, name, &req);
  }
  if (status != TP_OK) {
    return status;
  }
  uint64_t total = req.pool_bytes;
  for (uint32_t id = 0; id < req.num_buffers; id++) {
    total += req.buffer_sizes[id];
  }
  if (total > TP_RUN_PROGRAM_MAX_MEMORY) {
    return TP_ERR_ARENA_TOO_SMALL;
  }
  void *buffers[TP_MAX_BUFFERS] = {0};
  size_t sizes[TP_MAX_BUFFERS] = {0};
  void *pool = aligned_alloc(16, (req.pool_bytes + 16) & ~(size_t)15);
  for (uint32_t id = 0; id < req.num_buffers; id++) {
    sizes[id] = (size_t)req.buffer_sizes[id];
    buffers[id] = aligned_alloc(16, (sizes[id] + 16) & ~(size_t)15);
  }
  tp_method_memory memory = {pool, req.pool_bytes, buffers, sizes, req.num_buffers};
  tp_method method;
  status = tp_method_init(&method, &program, name, &memory, &tp_selected_kernels);
  if (status == TP_OK) {
    status = run_method(&method);
  }
  for (uint32_t id = 0; id < req.num_buffers; id++) {
    free(buffers[id]);
  }
  free(pool);
  return status;
}
