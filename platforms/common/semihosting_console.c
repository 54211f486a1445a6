/* Console and exit through semihosting: the console of every board run under QEMU. */
#include "tinypte/board.h"
#include "tinypte/semihosting.h"

void tp_board_init(void) {}

void tp_console_write(const char *text, size_t size) {
  char chunk[64];
  while (size > 0) {
    size_t n = size < sizeof chunk - 1 ? size : sizeof chunk - 1;
    for (size_t i = 0; i < n; ++i) chunk[i] = text[i];
    chunk[n] = '\0';
    tp_semihost_call(TP_SEMIHOST_SYS_WRITE0, chunk);
    text += n;
    size -= n;
  }
}

_Noreturn void tp_board_exit(int status) {
  const uintptr_t block[2] = {TP_SEMIHOST_APPLICATION_EXIT, (uintptr_t)status};
  tp_semihost_call(TP_SEMIHOST_SYS_EXIT_EXTENDED, block);
  for (;;) {
  }
}
