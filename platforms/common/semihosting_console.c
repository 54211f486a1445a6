/* Console (output and input) and exit through semihosting: the console of every board run under QEMU. */
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

/* The console's input: ":tt" opened for reading is the emulator's standard input. Opened on the
 * first read (-1 until then; a failed open leaves no input). */
static intptr_t console_input = -1;
static bool console_input_opened;

size_t tp_console_read(char *buffer, size_t size) {
  if (!console_input_opened) {
    console_input_opened = true;
    const uintptr_t open_block[3] = {(uintptr_t)":tt", 0 /* "r" */, 3 /* strlen(":tt") */};
    console_input = (intptr_t)tp_semihost_call(TP_SEMIHOST_SYS_OPEN, open_block);
  }
  if (console_input < 0 || size == 0) {
    return 0;
  }
  /* QEMU waits for at least one byte, then returns what there is; 0 bytes read is the end. */
  const uintptr_t read_block[3] = {(uintptr_t)console_input, (uintptr_t)buffer, size};
  uintptr_t not_read = tp_semihost_call(TP_SEMIHOST_SYS_READ, read_block);
  return not_read > size ? 0 : size - not_read;
}

_Noreturn void tp_board_exit(int status) {
  const uintptr_t block[2] = {TP_SEMIHOST_APPLICATION_EXIT, (uintptr_t)status};
  tp_semihost_call(TP_SEMIHOST_SYS_EXIT_EXTENDED, block);
  for (;;) {
  }
}
