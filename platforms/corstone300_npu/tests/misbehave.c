/* Firmware that misbehaves on purpose, one way per build (-D switch), so the Corstone-300
 * machine's tests can require the one-line failure each must produce (BUILD.bazel):
 * TP_MISBEHAVE_READ=<address> reads an address, TP_MISBEHAVE_UDF executes an undefined
 * instruction, TP_MISBEHAVE_SPIN never ends, TP_MISBEHAVE_NARROW_NPU reads one byte of the
 * Ethos-U55's ID register, TP_MISBEHAVE_EXIT=<status> returns that status from main. */
#include <stdint.h>

#include "tinypte/board.h"

int main(void) {
  tp_console_puts("misbehave: start\n");
#if defined(TP_MISBEHAVE_READ)
  tp_console_put_hex(*(volatile const uint32_t *)(uintptr_t)(TP_MISBEHAVE_READ));
#elif defined(TP_MISBEHAVE_UDF)
  __asm__ volatile("udf #7");
#elif defined(TP_MISBEHAVE_SPIN)
  for (volatile uint32_t n = 0;; n++) {
  }
#elif defined(TP_MISBEHAVE_NARROW_NPU)
  tp_console_put_hex(*(volatile const uint8_t *)(uintptr_t)0x58102000u);
#elif defined(TP_MISBEHAVE_EXIT)
  return TP_MISBEHAVE_EXIT;
#else
#error "build with one TP_MISBEHAVE_* switch"
#endif
  return 0;
}
