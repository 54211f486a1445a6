/* The example workspace's own firmware: a C application of its own, linked with tinypte's
 * board support (start-up, console, exit status) for any board. It prints the board's name
 * and its main stack's size, sums a small table with a known answer, and exits 0 when the
 * sum is right. */
#include <stdint.h>

#include "tinypte/board.h"

static const uint32_t table[] = {1u, 2u, 3u, 5u, 8u, 13u, 21u, 34u, 55u, 89u};

int main(void) {
  uint32_t sum = 0;
  for (uint32_t i = 0; i < sizeof table / sizeof table[0]; ++i) sum += table[i];
  tp_console_puts("hello: board=");
  tp_console_puts(tp_board_name());
  tp_console_puts("\nhello: stack=");
  tp_console_put_hex(tp_board_stack_size());
  tp_console_puts("\nhello: sum=");
  tp_console_put_hex(sum);
  tp_console_puts(sum == 231u ? "\nhello: PASS\n" : "\nhello: FAIL\n");
  return sum == 231u ? 0 : 1;
}
