/* Minimal two-core plumbing for the RP2350 model's tests: the SIO registers (RP2350 datasheet,
 * "SIO"), written directly, and core 1's launch through the boot ROM's handshake ("Launching
 * code on processor core 1"). Static functions only, named apart from the board support
 * library's tp_board_two_cores_* (which a two-core build may link). */
#ifndef TINYPTE_TESTS_TWO_CORES_LAUNCH_H
#define TINYPTE_TESTS_TWO_CORES_LAUNCH_H

#include <stdbool.h>
#include <stdint.h>

#define SIO_REG(offset) (*(volatile uint32_t *)(0xd0000000u + (offset)))
#define SIO_CPUID SIO_REG(0x000u)
#define SIO_FIFO_ST SIO_REG(0x050u)
#define SIO_FIFO_WR SIO_REG(0x054u)
#define SIO_FIFO_RD SIO_REG(0x058u)
#define SIO_SPINLOCK_ST SIO_REG(0x05cu)
#define SIO_SPINLOCK(n) SIO_REG(0x100u + 4u * (n))
#define FIFO_VLD (1u << 0) /* this core's RX FIFO holds a word */
#define FIFO_RDY (1u << 1) /* its TX FIFO has room */
#define TIMER0_TIMERAWL (*(volatile uint32_t *)0x400b0028u) /* microseconds */
#define SCB_VTOR (*(volatile uint32_t *)0xe000ed08u)

static inline void fifo_push(uint32_t word) {
  while (!(SIO_FIFO_ST & FIFO_RDY)) {
  }
  SIO_FIFO_WR = word;
  __asm__ volatile("sev");
}

/* A word from the other core, sleeping between polls (the model treats WFE as a hint). */
static inline uint32_t fifo_pop(void) {
  while (!(SIO_FIFO_ST & FIFO_VLD)) {
    __asm__ volatile("wfe");
  }
  return SIO_FIFO_RD;
}

/* A word from the other core within `microseconds` (TIMER0); false if none came. */
static inline bool fifo_pop_within(uint32_t *word, uint32_t microseconds) {
  const uint32_t start = TIMER0_TIMERAWL;
  while (!(SIO_FIFO_ST & FIFO_VLD)) {
    if (TIMER0_TIMERAWL - start > microseconds) {
      return false;
    }
  }
  *word = SIO_FIFO_RD;
  return true;
}

static inline void fifo_drain(void) {
  while (SIO_FIFO_ST & FIFO_VLD) {
    (void)SIO_FIFO_RD;
  }
}

/* Send the six words, each followed by its echo, draining before each 0 and starting over when
 * an echo differs (at most 8 times) unless `check_echoes` is false. The number of echoes read;
 * 0 if one did not come within 1 ms. */
static inline uint32_t launch_core1(const uint32_t sequence[6], bool check_echoes) {
  uint32_t step = 0, echoes = 0, restarts = 0;
  while (step < 6) {
    if (sequence[step] == 0) {
      fifo_drain();
      __asm__ volatile("sev");
    }
    fifo_push(sequence[step]);
    uint32_t echo;
    if (!fifo_pop_within(&echo, 1000u)) {
      return 0;
    }
    echoes++;
    if (echo == sequence[step] || !check_echoes) {
      step++;
    } else if (++restarts > 8) {
      return echoes;
    } else {
      step = 0;
    }
  }
  return echoes;
}

#endif /* TINYPTE_TESTS_TWO_CORES_LAUNCH_H */
