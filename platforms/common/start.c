/* Architecture-neutral C start-up: .data/.bss initialization, the stack's paint, then main,
 * then exit.
 *
 * Stack high-water mark: before main, tp_start fills the stack below its own frame with
 * STACK_PAINT; tp_board_stack_used() finds the deepest word that no longer holds it. What
 * lies above the painted part (tp_start's frame and a few words below it) counts as used,
 * so the figure is an upper bound by at most those bytes. Interrupt handlers run on the same
 * stack and are included. */
#include <stdint.h>
#include <string.h>

#include "tinypte/board.h"

/* Defined by platforms/common/firmware.ld.tpl. */
extern uint8_t __tp_data_start[], __tp_data_end[], __tp_data_load[];
extern uint8_t __tp_bss_start[], __tp_bss_end[];
extern uint32_t __tp_stack_limit[], __tp_stack_top[];

#define STACK_PAINT 0x4b415453u /* "STAK" */
#define STACK_UNPAINTED_WORDS 16u /* below tp_start's frame, for the calls painting it */

int main(void);

/* Paint from the stack's limit to `below` (a word address in tp_start's frame). */
__attribute__((noinline)) static void paint_stack(volatile uint32_t *below) {
  for (volatile uint32_t *word = __tp_stack_limit; word < below - STACK_UNPAINTED_WORDS; word++) {
    *word = STACK_PAINT;
  }
}

_Noreturn void tp_start(void) {
  memcpy(__tp_data_start, __tp_data_load, (size_t)(__tp_data_end - __tp_data_start));
  memset(__tp_bss_start, 0, (size_t)(__tp_bss_end - __tp_bss_start));
  volatile uint32_t frame = 0;
  paint_stack(&frame);
  tp_board_init();
  tp_board_exit(main());
}

uint32_t tp_board_stack_size(void) { return (uint32_t)((uintptr_t)__tp_stack_top - (uintptr_t)__tp_stack_limit); }

uint32_t tp_board_stack_used(void) {
  const volatile uint32_t *word = __tp_stack_limit;
  while (word < __tp_stack_top && *word == STACK_PAINT) {
    word++;
  }
  return (uint32_t)((uintptr_t)__tp_stack_top - (uintptr_t)word);
}

/* Emulated boards exit when main returns; real boards override this (see board.h). */
__attribute__((weak)) bool tp_board_loops_forever(void) { return false; }
