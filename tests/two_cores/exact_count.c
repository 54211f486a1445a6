/* Core 1 running hand-written code, to check the RP2350 model's count of core 1's instructions
 * exactly (two_cores_report_test, python/machines/rp2350/two_cores_test.py, expects core1=2011 in
 * the run's last line):
 *   ldr r0, =SIO; ldr r1, [r0] (CPUID); movw r2, #1000          3 instructions
 *   1000 x (subs r2, #1; bne 1b)                                 2000
 *   adds r1, #0x40; str r1, [r0, #0x54] (push 0x41)               2
 *   wait for a word: ldr r1, [r0, #0x50]; lsls r1, #31; beq       3 per poll, 2 polls: 6
 * The model counts a poll as waiting when the same read repeats at the same place in the code
 * (in the same translated block) with the same value: the first poll runs in the block that
 * starts at `adds`, the second in the loop's own block, and the third, which repeats the
 * second, stalls on its load: 3 + 2000 + 2 + 6 = 2011. Core 0 checks the word and returns. */
#include <stdbool.h>
#include <stdint.h>

#include "launch.h"
#include "tinypte/board.h"

static uint32_t core1_stack[64] __attribute__((aligned(8)));

void exact_count_core1(void);
__asm__(
    "  .section .text.exact_count_core1, \"ax\", %progbits\n"
    "  .global exact_count_core1\n"
    "  .type exact_count_core1, %function\n"
    "  .thumb_func\n"
    "exact_count_core1:\n"
    "  ldr r0, =0xd0000000\n"
    "  ldr r1, [r0]\n"
    "  movw r2, #1000\n"
    "1: subs r2, r2, #1\n"
    "  bne 1b\n"
    "  adds r1, r1, #0x40\n"
    "  str r1, [r0, #0x54]\n"
    "2: ldr r1, [r0, #0x50]\n"
    "  lsls r1, r1, #31\n"
    "  beq 2b\n"
    "  b 2b\n"
    "  .ltorg\n"
    "  .size exact_count_core1, . - exact_count_core1\n"
    "  .text\n");

int main(void) {
  const uint32_t echoes = start_core1(exact_count_core1, core1_stack + 64);
  uint32_t answer = 0;
  const bool ok = echoes == 6u && rp2350_fifo_pop_within(&answer, 1000u) && answer == 0x41u;
  tp_console_puts("exact_count: core 1 answered ");
  tp_console_put_hex(answer);
  tp_console_puts(ok ? "\nexact_count: PASS\n" : "\nexact_count: FAIL\n");
  return ok ? TP_EXIT_OK : TP_EXIT_FAILURE;
}
