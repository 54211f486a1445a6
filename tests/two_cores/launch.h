/* Minimal two-core plumbing for the RP2350 model's tests: the SIO FIFOs and core 1's launch of
 * the board (platforms/pico2w/rp2350_sio.h), plus what only the tests use: a blocking pop that
 * sleeps between polls, the spinlocks and the standard launch of an entry point. Static
 * functions only, named apart from the board support library's tp_board_two_cores_* (which a
 * two-core build may link). */
#ifndef TINYPTE_TESTS_TWO_CORES_LAUNCH_H
#define TINYPTE_TESTS_TWO_CORES_LAUNCH_H

#include <stdbool.h>
#include <stdint.h>

#include "platforms/pico2w/rp2350_sio.h"
#include "tinypte/board.h"

#define SIO_SPINLOCK_ST TP_REG(0xd000005cu)
#define SIO_SPINLOCK(n) TP_REG(0xd0000100u + 4u * (n))
#define SCB_VTOR TP_REG(0xe000ed08u)

/* A word from the other core, sleeping between polls (the model treats WFE as a hint). */
static inline uint32_t fifo_pop(void) {
  while (!(TP_SIO_FIFO_ST & TP_SIO_FIFO_ST_VLD)) {
    __asm__ volatile("wfe");
  }
  return TP_SIO_FIFO_RD;
}

/* Sends the launch words as the board does, waiting 1 ms for each echo: the number of echoes
 * read before the launch ended (6 when every word was echoed at once). */
static inline uint32_t launch_core1(const uint32_t sequence[6], bool check_echoes) {
  uint32_t echoes;
  (void)rp2350_launch_core1(sequence, check_echoes, 1000u, &echoes);
  return echoes;
}

/* Core 1 launched at `entry` on the stack that ends at `stack_top`, with this image's vector
 * table: the number of echoes, as launch_core1. */
static inline uint32_t start_core1(void (*entry)(void), uint32_t *stack_top) {
  const uint32_t sequence[6] = {0u, 0u, 1u, SCB_VTOR, (uint32_t)(uintptr_t)stack_top,
                                (uint32_t)(uintptr_t)entry};
  return launch_core1(sequence, true);
}

/* What the tests whose run must fail (deadlock, silent_core1, wrong_launch) print after the
 * launch: its echoes, then whether core 1 answered within 2 s. True when it did. */
static inline bool report_launch(const char *test, uint32_t echoes) {
  tp_console_puts(test);
  tp_console_puts(": launched after ");
  tp_console_put_hex(echoes);
  tp_console_puts(" echoes\n");
  uint32_t word = 0;
  const bool answered = rp2350_fifo_pop_within(&word, 2000000u);
  tp_console_puts(test);
  tp_console_puts(answered ? ": core 1 answered\n" : ": no answer\n");
  return answered;
}

#endif /* TINYPTE_TESTS_TWO_CORES_LAUNCH_H */
