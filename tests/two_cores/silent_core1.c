/* Core 1 launched correctly, then busy for ever without answering: core 0 waits for its first
 * word, so the RP2350 model's core-1 watchdog must end the run ("core 1 did not answer").
 * Built with SILENT_CORE1_SEV, core 1 executes SEV in its loop: that could wake core 0 (a
 * WFE), so the watchdog stays quiet and the run ends at core 1's instruction limit instead. */
#include <stdbool.h>
#include <stdint.h>

#include "launch.h"
#include "tinypte/board.h"

static uint32_t core1_stack[64] __attribute__((aligned(8)));
static volatile uint32_t core1_busy;

static _Noreturn void core1_main(void) {
  for (;;) {
    core1_busy++;
#if defined(SILENT_CORE1_SEV)
    __asm__ volatile("sev");
#endif
  }
}

int main(void) {
  const uint32_t sequence[6] = {0u, 0u, 1u, SCB_VTOR, (uint32_t)(uintptr_t)(core1_stack + 64),
                                (uint32_t)(uintptr_t)core1_main};
  tp_console_puts("silent_core1: launched after ");
  tp_console_put_hex(launch_core1(sequence, true));
  tp_console_puts(" echoes\n");
  uint32_t word = 0;
  const bool answered = fifo_pop_within(&word, 2000000u);
  tp_console_puts(answered ? "silent_core1: core 1 answered\n" : "silent_core1: no answer\n");
  return TP_EXIT_FAILURE;
}
