/* Timing ticks on RISC-V: the machine cycle counter mcycle (privileged spec, "Hardware
 * Performance Monitor"), low 32 bits. Under QEMU it follows the virtual clock. */
#include "tinypte/board.h"

uint32_t tp_board_ticks(void) {
  uint32_t cycles;
  __asm__ volatile(".option push\n.option arch, +zicsr\ncsrr %0, mcycle\n.option pop" : "=r"(cycles));
  return cycles;
}

uint32_t tp_board_ticks_mask(void) { return 0xFFFFFFFFu; }

const char *tp_board_ticks_source(void) { return "mcycle"; }
