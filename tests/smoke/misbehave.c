/* Firmware that misbehaves on purpose, to prove the test harnesses (qemu_test, and
 * instruction_model_test on the RP2350 model) catch it. The behaviour is chosen at compile time:
 * TP_MISBEHAVE_EXIT_STATUS=N exits with N after printing, TP_MISBEHAVE_HANG loops forever,
 * TP_MISBEHAVE_FAULT executes a trapping instruction, TP_MISBEHAVE_READ=ADDRESS reads the
 * word at ADDRESS, TP_MISBEHAVE_POLL=ADDRESS waits for bit 0 of the word at ADDRESS. */
#include <stdint.h>

#include "tinypte/board.h"

int main(void) {
  tp_console_puts("misbehave: starting\n");
#if defined(TP_MISBEHAVE_HANG)
  for (volatile int forever = 1; forever;) {
  }
#elif defined(TP_MISBEHAVE_FAULT)
  __builtin_trap();
#elif defined(TP_MISBEHAVE_READ)
  (void)*(volatile uint32_t *)(uintptr_t)TP_MISBEHAVE_READ;
#elif defined(TP_MISBEHAVE_POLL)
  while (!(*(volatile uint32_t *)(uintptr_t)TP_MISBEHAVE_POLL & 1u)) {
  }
#endif
#if defined(TP_MISBEHAVE_EXIT_STATUS)
  return TP_MISBEHAVE_EXIT_STATUS;
#else
  return 0;
#endif
}
