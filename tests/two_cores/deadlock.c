/* Both cores wait for a word from the other: core 1, launched correctly, waits for a job, and
 * core 0 waits for core 1's first word. The RP2350 model must end the run naming both waits
 * ("deadlock: core 0 waits at PC ... on ..., core 1 waits at PC ... on ..."). */
#include <stdbool.h>
#include <stdint.h>

#include "launch.h"
#include "tinypte/board.h"

static uint32_t core1_stack[64] __attribute__((aligned(8)));

static _Noreturn void core1_main(void) {
  const uint32_t job = fifo_pop();
  fifo_push(job);
  for (;;) {
  }
}

int main(void) {
  const uint32_t sequence[6] = {0u, 0u, 1u, SCB_VTOR, (uint32_t)(uintptr_t)(core1_stack + 64),
                                (uint32_t)(uintptr_t)core1_main};
  tp_console_puts("deadlock: launched after ");
  tp_console_put_hex(launch_core1(sequence, true));
  tp_console_puts(" echoes\n");
  uint32_t word = 0;
  const bool answered = fifo_pop_within(&word, 2000000u);
  tp_console_puts(answered ? "deadlock: core 1 answered\n" : "deadlock: no answer\n");
  return TP_EXIT_FAILURE;
}
