/* A launch with a wrong third word (2 instead of 1): the boot ROM answers it with the 0 of a new
 * handshake and never jumps. This core 0 pops an answer after each word without starting over,
 * then waits for core 1's first word: the RP2350 model must fail the run saying core 1 was
 * never started (and where the boot ROM's handshake stands). */
#include <stdbool.h>
#include <stdint.h>

#include "launch.h"
#include "tinypte/board.h"

static uint32_t core1_stack[64] __attribute__((aligned(8)));

static _Noreturn void core1_main(void) {
  rp2350_fifo_push(1u);
  for (;;) {
  }
}

int main(void) {
  const uint32_t sequence[6] = {0u, 0u, 2u, SCB_VTOR, (uint32_t)(uintptr_t)(core1_stack + 64),
                                (uint32_t)(uintptr_t)core1_main};
  return report_launch("wrong_launch", launch_core1(sequence, false)) ? TP_EXIT_OK : TP_EXIT_FAILURE;
}
