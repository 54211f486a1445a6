/* Console helpers built on a board's tp_console_write(), and fault reporting. */
#include <string.h>

#include "tinypte/board.h"

const char *tp_board_name(void) { return TP_BOARD_NAME; }

void tp_console_puts(const char *text) { tp_console_write(text, strlen(text)); }

void tp_console_put_hex(uint32_t value) {
  char digits[10] = {'0', 'x'};
  for (int i = 0; i < 8; ++i) {
    digits[9 - i] = "0123456789abcdef"[value & 0xfu];
    value >>= 4;
  }
  tp_console_write(digits, sizeof digits);
}

_Noreturn void tp_board_fault(const char *what, const uint32_t *words, const char *const *names, size_t count) {
  tp_console_puts("\ntinypte: ");
  tp_console_puts(what);
  tp_console_puts(" on board ");
  tp_console_puts(tp_board_name());
  for (size_t i = 0; i < count; ++i) {
    tp_console_puts(i == 0 ? ": " : ", ");
    tp_console_puts(names[i]);
    tp_console_puts("=");
    tp_console_put_hex(words[i]);
  }
  tp_console_puts("\n");
  tp_board_exit(TP_EXIT_FAULT);
}
