/* Firmware that misbehaves on purpose, to prove qemu_test catches it. The behaviour is
 * chosen at compile time: TP_MISBEHAVE_EXIT_STATUS=N exits with N after printing,
 * TP_MISBEHAVE_HANG loops forever, TP_MISBEHAVE_FAULT executes a trapping instruction. */
#include "tinypte/board.h"

int main(void) {
  tp_console_puts("misbehave: starting\n");
#if defined(TP_MISBEHAVE_HANG)
  for (volatile int forever = 1; forever;) {
  }
#elif defined(TP_MISBEHAVE_FAULT)
  __builtin_trap();
#endif
#if defined(TP_MISBEHAVE_EXIT_STATUS)
  return TP_MISBEHAVE_EXIT_STATUS;
#else
  return 0;
#endif
}
