/* The Pico 2 W's two cores (tinypte/two_cores_board.h): core 1 of the RP2350, started
 * through the boot ROM and fed jobs through the SIO's inter-core FIFOs.
 *
 * Start: the boot ROM's launch handshake (rp2350_sio.h, shared with the RP2350 model's two-core
 * tests). Core 1 then enters core1_main on core1_stack, enables its own FPU (CPACR is per core)
 * and stack limit, and says it is ready.
 *
 * Jobs: core 0 pushes the job's function and argument (two words: the FIFO holds four, so a
 * post never waits); core 1 pops them, runs the job and pushes 1. Core 0 waits for that word,
 * reading TIMER0's microseconds, for at most TP_BOARD_TWO_CORES_TIMEOUT_US: a core 1 that crashed
 * or never started ends the call with false (the runtime's TP_ERR_WORKER), not a hang.
 * Memory is shared and the RP2350 has no data cache: the FIFO words carry DMBs (rp2350_sio.h). */
#include <stdbool.h>
#include <stdint.h>

#include "rp2350_sio.h"
#include "tinypte/board.h"
#include "tinypte/painted_stack.h"
#include "tinypte/two_cores_board.h"

#define SCB_CPACR TP_REG(0xE000ED88u)
#define SCB_CCR TP_REG(0xE000ED14u)
#define CCR_DIV_0_TRP (1u << 4)

/* Core 1 runs kernel routines only (no console, no interrupts): its stack holds their frames with
 * the app's margin (the summary line reports the high-water mark). It lives in SCRATCH_X, the
 * 4 KiB SRAM bank the Pico SDK also gives core 1's stack (its own bank: no contention with
 * core 0's accesses to the main SRAM), not in the main RAM region. */
#define CORE1_STACK_WORDS 1024u
#define CORE1_READY 0x52454459u /* "REDY": core 1's first word */
#define JOB_DONE 1u

static uint32_t core1_stack[CORE1_STACK_WORDS]
    __attribute__((aligned(8), section(".tp_region.SCRATCH_X.noload.core1_stack")));
static bool core1_started;

typedef void (*tp_vector)(void);
extern const tp_vector tp_vector_table[16]; /* platforms/common/cortex_m/vectors.c */

/* A word from the other core, waiting for ever (core 1 between jobs). */
static uint32_t fifo_pop(void) {
  while (!(TP_SIO_FIFO_ST & TP_SIO_FIFO_ST_VLD)) {
  }
  const uint32_t word = TP_SIO_FIFO_RD;
  __asm__ volatile("dmb" ::: "memory");
  return word;
}

/* Core 1 from the boot ROM on: its own set-up, then jobs for ever. */
static _Noreturn void core1_main(void) {
#if defined(__ARM_FP) || defined(__ARM_FEATURE_MVE)
  SCB_CPACR |= 0xFu << 20; /* CP10/CP11 full access: the routines may use the FPU */
  __asm__ volatile("dsb\n\tisb" ::: "memory");
#endif
  __asm__ volatile("msr msplim, %0" ::"r"(core1_stack));
  SCB_CCR |= CCR_DIV_0_TRP;
  rp2350_fifo_push(CORE1_READY);
  for (;;) {
    const tp_two_cores_job job = (tp_two_cores_job)fifo_pop();
    void *const arg = (void *)fifo_pop();
    job(arg);
    rp2350_fifo_push(JOB_DONE);
  }
}

bool tp_board_two_cores_start(void) {
  tp_stack_paint(core1_stack, CORE1_STACK_WORDS);
  const uint32_t sequence[6] = {0u, 0u, 1u, (uint32_t)(uintptr_t)tp_vector_table,
                                (uint32_t)(uintptr_t)(core1_stack + CORE1_STACK_WORDS),
                                (uint32_t)(uintptr_t)core1_main};
  uint32_t echoes, ready;
  core1_started = rp2350_launch_core1(sequence, true, TP_BOARD_TWO_CORES_TIMEOUT_US, &echoes) &&
                  rp2350_fifo_pop_within(&ready, TP_BOARD_TWO_CORES_TIMEOUT_US) &&
                  ready == CORE1_READY;
  return core1_started;
}

void tp_board_two_cores_post(tp_two_cores_job job, void *arg) {
  rp2350_fifo_push((uint32_t)(uintptr_t)job);
  rp2350_fifo_push((uint32_t)(uintptr_t)arg);
}

bool tp_board_two_cores_wait(void) {
  uint32_t word;
  return rp2350_fifo_pop_within(&word, TP_BOARD_TWO_CORES_TIMEOUT_US) && word == JOB_DONE;
}

uint32_t tp_board_two_cores_stack_size(void) { return core1_started ? sizeof core1_stack : 0; }

uint32_t tp_board_two_cores_stack_used(void) {
  if (!core1_started) {
    return 0;
  }
  return tp_stack_used(core1_stack, CORE1_STACK_WORDS);
}
