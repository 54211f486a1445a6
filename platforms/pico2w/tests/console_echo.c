/* Console input test firmware (either Pico 2 W console): reads what the host sends with
 * tp_console_read and answers each line with
 *   "line K: <the line upper-cased> | len=L total=T fnv1a=0xXXXXXXXX"
 * (L the line's bytes without its "\n" and a "\r" before it, T all bytes read so far, the FNV-1a
 * digest of the line's L bytes). A line "end" ends the input:
 *   "input: end after N lines, T bytes, fnv1a=0xXXXXXXXX" (the digest of every byte read);
 * tp_console_read returning 0 ends it too (a last line without "\n" is answered first):
 *   "input: closed after N lines, T bytes, fnv1a=0xXXXXXXXX".
 * On a board that loops forever the closed line is printed again while reads keep returning 0
 * (the port is closed, so the lines are dropped until a terminal opens it again).
 * The reads ask for 7, 16, 64, 1, ... bytes in turn, so a USB packet or the UART FIFO is handed
 * out in pieces. platforms/pico2w/tests/console_input_test.py computes the expected lines. */
#include <stddef.h>
#include <stdint.h>

#include "tinypte/board.h"

#define LINE_MAX 256u
#define FNV_OFFSET 0x811c9dc5u
#define FNV_PRIME 0x01000193u

static char line[LINE_MAX];
static size_t line_size;
static uint32_t lines;
static uint32_t total;
static uint32_t digest_all = FNV_OFFSET;

static void put_decimal(uint32_t value) {
  char digits[10];
  size_t n = 0;
  do {
    digits[n++] = (char)('0' + value % 10u);
    value /= 10u;
  } while (value != 0);
  char text[10];
  for (size_t i = 0; i < n; i++) {
    text[i] = digits[n - 1 - i];
  }
  tp_console_write(text, n);
}

static uint32_t fnv1a(uint32_t hash, const char *bytes, size_t size) {
  for (size_t i = 0; i < size; i++) {
    hash = (hash ^ (uint8_t)bytes[i]) * FNV_PRIME;
  }
  return hash;
}

/* Answer the line held in `line` (its "\r" removed); true when it is "end". */
static int answer_line(void) {
  if (line_size > 0 && line[line_size - 1] == '\r') {
    line_size--;
  }
  lines++;
  tp_console_puts("line ");
  put_decimal(lines);
  tp_console_puts(": ");
  for (size_t i = 0; i < line_size; i++) {
    char c = line[i];
    char upper = (c >= 'a' && c <= 'z') ? (char)(c - 'a' + 'A') : c;
    tp_console_write(&upper, 1);
  }
  tp_console_puts(" | len=");
  put_decimal((uint32_t)line_size);
  tp_console_puts(" total=");
  put_decimal(total);
  tp_console_puts(" fnv1a=");
  tp_console_put_hex(fnv1a(FNV_OFFSET, line, line_size));
  tp_console_puts("\n");
  const int end = line_size == 3 && line[0] == 'e' && line[1] == 'n' && line[2] == 'd';
  line_size = 0;
  return end;
}

static void summary(const char *how) {
  tp_console_puts("input: ");
  tp_console_puts(how);
  tp_console_puts(" after ");
  put_decimal(lines);
  tp_console_puts(" lines, ");
  put_decimal(total);
  tp_console_puts(" bytes, fnv1a=");
  tp_console_put_hex(digest_all);
  tp_console_puts("\n");
}

int main(void) {
  static const size_t asks[] = {7, 16, 64, 1, 33, 5};
  char chunk[64];
  size_t turn = 0;
  for (;;) {
    const size_t ask = asks[turn++ % (sizeof asks / sizeof asks[0])];
    const size_t n = tp_console_read(chunk, ask);
    if (n > ask) {
      tp_console_puts("input: FAIL read returned more than asked\n");
      return 1;
    }
    if (n == 0) {
      break;
    }
    for (size_t i = 0; i < n; i++) {
      total++;
      digest_all = fnv1a(digest_all, &chunk[i], 1);
      if (chunk[i] == '\n') {
        if (answer_line()) {
          summary("end");
          return 0;
        }
      } else if (line_size == LINE_MAX) {
        tp_console_puts("input: FAIL a line longer than the firmware's buffer\n");
        return 1;
      } else {
        line[line_size++] = chunk[i];
      }
    }
  }
  if (line_size > 0) {
    (void)answer_line();
  }
  summary("closed");
  while (tp_board_loops_forever() && tp_console_read(chunk, 1) == 0) {
    summary("closed");
  }
  return 0;
}
