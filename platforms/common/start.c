/* Architecture-neutral C start-up: .data/.bss initialization, then main, then exit. */
#include <stdint.h>
#include <string.h>

#include "tinypte/board.h"

/* Defined by platforms/common/firmware.ld.tpl. */
extern uint8_t __tp_data_start[], __tp_data_end[], __tp_data_load[];
extern uint8_t __tp_bss_start[], __tp_bss_end[];

int main(void);

_Noreturn void tp_start(void) {
  memcpy(__tp_data_start, __tp_data_load, (size_t)(__tp_data_end - __tp_data_start));
  memset(__tp_bss_start, 0, (size_t)(__tp_bss_end - __tp_bss_start));
  tp_board_init();
  tp_board_exit(main());
}

/* Emulated boards exit when main returns; real boards override this (see board.h). */
__attribute__((weak)) bool tp_board_loops_forever(void) { return false; }
