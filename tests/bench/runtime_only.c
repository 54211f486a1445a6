/* Size probe: the whole runtime API on the sine program, with whatever kernel registry is
 * linked (none, or sine's). //tests/bench:sizes subtracts firmwares built from this file
 * and from baseline.c to measure what the runtime core and the kernels cost in flash. */
#include <stdint.h>

#include "sine_program.h"
#include "tinypte/board.h"
#include "tinypte/runtime.h"

static uint8_t arena[256] __attribute__((aligned(16)));
static uint64_t pool[160];

int main(void) {
  tp_program program;
  tp_method_requirements req;
  tp_method method;
  tp_status status = tp_program_load(&program, sine_pte, SINE_PTE_SIZE);
  if (status == TP_OK) {
    status = tp_method_requirements_get(&program, "forward", &tp_selected_kernels, &req);
  }
  void *buffers[2] = {0, arena};
  size_t sizes[2] = {0, sizeof arena};
  tp_method_memory memory = {pool, sizeof pool, buffers, sizes, 2};
  if (status == TP_OK) {
    status = tp_method_init(&method, &program, "forward", &memory, &tp_selected_kernels);
  }
  if (status == TP_OK) {
    float x = 1.0f;
    const tp_tensor *y;
    status = tp_method_set_input(&method, 0, &x, sizeof x);
    if (status == TP_OK) {
      status = tp_method_execute(&method);
    }
    if (status == TP_OK) {
      status = tp_method_output(&method, 0, &y);
    }
  }
  tp_console_puts("runtime_only: ");
  tp_console_puts(tp_status_name(status));
  tp_console_puts("\n");
  return 0;
}
