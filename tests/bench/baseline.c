/* Size probe: a firmware with the board code and console only (see runtime_only.c). */
#include "tinypte/board.h"

int main(void) {
  tp_console_puts("runtime_only: baseline\n");
  return 0;
}
