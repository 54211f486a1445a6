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
  rp2350_fifo_push(job);
  for (;;) {
  }
}

int main(void) {
  (void)report_launch("deadlock", start_core1(core1_main, core1_stack + 64));
  return TP_EXIT_FAILURE;
}
