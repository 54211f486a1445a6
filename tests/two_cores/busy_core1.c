/* Core 1 answers once, then computes for ever without touching the SIO again: core 0, woken by
 * the answer, must still get to run (the RP2350 model lets core 1 run at most its watchdog's
 * count of instructions before it yields), check the word and return. */
#include <stdbool.h>
#include <stdint.h>

#include "launch.h"
#include "tinypte/board.h"

static uint32_t core1_stack[64] __attribute__((aligned(8)));
static volatile uint32_t core1_busy;

static _Noreturn void core1_main(void) {
  rp2350_fifo_push(0x600du);
  for (;;) {
    core1_busy++;
  }
}

int main(void) {
  const uint32_t echoes = start_core1(core1_main, core1_stack + 64);
  uint32_t word = 0;
  const bool ok = echoes == 6u && rp2350_fifo_pop_within(&word, 2000000u) && word == 0x600du;
  tp_console_puts(ok ? "busy_core1: PASS\n" : "busy_core1: FAIL\n");
  return ok ? TP_EXIT_OK : TP_EXIT_FAILURE;
}
