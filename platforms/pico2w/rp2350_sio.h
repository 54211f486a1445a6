/* The RP2350's inter-core FIFOs (RP2350 datasheet, "SIO") and core 1's launch through the boot
 * ROM ("Launching code on processor core 1"): what the board's two cores (two_cores.c) and the
 * RP2350 model's two-core tests (tests/two_cores/launch.h) both drive. Static inline only, so a
 * test firmware that also links the board's two_cores.c gets no clash.
 *
 * The launch: after reset core 1 waits in the boot ROM for the words 0, 0, 1, vector table,
 * stack pointer, entry point, echoing each one; core 0 sends them one at a time, drains stale
 * words before each 0 and starts over when an echo differs (at most 8 times). Memory is shared
 * and the RP2350 has no data cache: a DMB before each push (and after each pop) orders the data
 * a word hands over. */
#ifndef TINYPTE_PLATFORMS_PICO2W_RP2350_SIO_H
#define TINYPTE_PLATFORMS_PICO2W_RP2350_SIO_H

#include <stdbool.h>
#include <stdint.h>

#include "rp2350_regs.h"

/* SIO (single-cycle I/O, each core's own view at 0xd0000000). */
#define TP_SIO_CPUID TP_REG(0xd0000000u)
#define TP_SIO_FIFO_ST TP_REG(0xd0000050u)
#define TP_SIO_FIFO_WR TP_REG(0xd0000054u)
#define TP_SIO_FIFO_RD TP_REG(0xd0000058u)
#define TP_SIO_FIFO_ST_VLD (1u << 0) /* this core's RX FIFO holds a word */
#define TP_SIO_FIFO_ST_RDY (1u << 1) /* its TX FIFO has room */

static inline void rp2350_fifo_push(uint32_t word) {
  while (!(TP_SIO_FIFO_ST & TP_SIO_FIFO_ST_RDY)) {
  }
  __asm__ volatile("dmb" ::: "memory");
  TP_SIO_FIFO_WR = word;
  __asm__ volatile("sev");
}

/* A word from the other core within `microseconds` (TIMER0); false if none came. */
static inline bool rp2350_fifo_pop_within(uint32_t *word, uint32_t microseconds) {
  const uint32_t start = TP_REG(TP_TIMER0_TIMERAWL);
  while (!(TP_SIO_FIFO_ST & TP_SIO_FIFO_ST_VLD)) {
    if (TP_REG(TP_TIMER0_TIMERAWL) - start > microseconds) {
      return false;
    }
  }
  *word = TP_SIO_FIFO_RD;
  __asm__ volatile("dmb" ::: "memory");
  return true;
}

static inline void rp2350_fifo_drain(void) {
  while (TP_SIO_FIFO_ST & TP_SIO_FIFO_ST_VLD) {
    (void)TP_SIO_FIFO_RD;
  }
}

/* Sends the six launch words, each answered by its echo within `microseconds`. With
 * `check_echoes` false a differing echo is taken as right (tests that send a wrong sequence).
 * True when all six were echoed; `*echoes` counts the echoes read (6 when none differed). */
static inline bool rp2350_launch_core1(const uint32_t sequence[6], bool check_echoes,
                                       uint32_t microseconds, uint32_t *echoes) {
  uint32_t step = 0, restarts = 0;
  *echoes = 0;
  while (step < 6) {
    if (sequence[step] == 0) {
      rp2350_fifo_drain();
      __asm__ volatile("sev");
    }
    rp2350_fifo_push(sequence[step]);
    uint32_t echo;
    if (!rp2350_fifo_pop_within(&echo, microseconds)) {
      return false;
    }
    ++*echoes;
    if (echo == sequence[step] || !check_echoes) {
      step++;
    } else if (++restarts > 8) {
      return false;
    } else {
      step = 0;
    }
  }
  return true;
}

#endif /* TINYPTE_PLATFORMS_PICO2W_RP2350_SIO_H */
