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
  (void)report_launch("silent_core1", start_core1(core1_main, core1_stack + 64));
  return TP_EXIT_FAILURE;
}
