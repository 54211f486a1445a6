/* Reports a RISC-V machine-mode trap (illegal instruction, misaligned or faulting
 * access, ...) with mcause, mepc and mtval, then exits with TP_EXIT_FAULT. */
#include <stdint.h>

#include "tinypte/board.h"

_Noreturn void tp_trap_handler(uint32_t mcause, uint32_t mepc, uint32_t mtval);

_Noreturn void tp_trap_handler(uint32_t mcause, uint32_t mepc, uint32_t mtval) {
  static const char *const names[] = {"mcause", "mepc", "mtval"};
  const uint32_t words[] = {mcause, mepc, mtval};
  tp_board_fault("RISC-V trap", words, names, 3);
}
