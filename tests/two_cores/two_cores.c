/* Two cores on the RP2350 model: core 0 launches core 1 through the boot ROM's handshake, hands
 * it jobs through the SIO FIFOs (a function and its argument; core 1 answers with a word when
 * done) and checks what core 1 computed in shared SRAM:
 * - CPUID reads 0 on core 0 and 1 on core 1 (core 1's first word);
 * - sums of squares over shared data, half by each core, JOBS times;
 * - a spinlock core 0 holds while core 1's job waits for it, then releases;
 * - tp_method_execute: a stand-in with the runtime's entry point's name, so run.py
 *   --count-execute times it (two_cores_report_test checks its report): core 1 counts down from
 *   COUNT (exactly 2 COUNT + 1 instructions), core 0 from COUNT / 2, then waits for core 1.
 * Prints one line per check and "two_cores: PASS"; returns 0 only then. */
#include <stdbool.h>
#include <stdint.h>

#include "launch.h"
#include "tests/smoke/check_line.h"
#include "tinypte/board.h"

#define JOBS 8u
#define WORDS 256u
#define COUNT 20000u
#define LOCK 7u
#define DONE 0xd0e0u

typedef void (*job_fn)(uint32_t arg);

static uint32_t core1_stack[512] __attribute__((aligned(8)));
static uint32_t shared_data[WORDS];
static volatile uint32_t sums[2];
static volatile uint32_t marker;
static volatile uint32_t marker_seen;

static void sum_squares(uint32_t half) {
  uint32_t sum = 0;
  for (uint32_t i = half * (WORDS / 2); i < (half + 1) * (WORDS / 2); i++) {
    sum += shared_data[i] * shared_data[i];
  }
  sums[half] = sum;
}

static void take_lock(uint32_t lock) {
  while (!SIO_SPINLOCK(lock)) {
  }
  marker_seen = marker;
  SIO_SPINLOCK(lock) = 1;
}

/* Exactly 2 n + 1 instructions (n > 0). */
void two_cores_count_down(uint32_t n);
__asm__(
    "  .section .text.two_cores_count_down, \"ax\", %progbits\n"
    "  .global two_cores_count_down\n"
    "  .type two_cores_count_down, %function\n"
    "  .thumb_func\n"
    "two_cores_count_down:\n"
    "1: subs r0, r0, #1\n"
    "  bne 1b\n"
    "  bx lr\n"
    "  .size two_cores_count_down, . - two_cores_count_down\n"
    "  .text\n");
#define count_down two_cores_count_down

static _Noreturn void core1_main(void) {
  rp2350_fifo_push(TP_SIO_CPUID);
  for (;;) {
    const job_fn job = (job_fn)fifo_pop();
    const uint32_t arg = fifo_pop();
    job(arg);
    rp2350_fifo_push(DONE);
  }
}

__attribute__((noinline)) uint32_t tp_method_execute(uint32_t count) {
  rp2350_fifo_push((uint32_t)(uintptr_t)count_down);
  rp2350_fifo_push(count);
  count_down(count / 2);
  uint32_t done = 0;
  return rp2350_fifo_pop_within(&done, 1000000u) ? done : 0;
}

static int check(const char *what, int ok, uint32_t got) {
  return check_line("two_cores: ", what, ok, got);
}

int main(void) {
  int ok = 1;
  ok &= check("core 0 CPUID", TP_SIO_CPUID == 0u, TP_SIO_CPUID);
  const uint32_t echoes = start_core1(core1_main, core1_stack + 512);
  ok &= check("launch echoes", echoes == 6u, echoes);
  uint32_t cpuid = 0xffffffffu;
  ok &= check("core 1 CPUID", rp2350_fifo_pop_within(&cpuid, 1000u) && cpuid == 1u, cpuid);

  uint32_t jobs_ok = 0;
  for (uint32_t job = 0; job < JOBS; job++) {
    for (uint32_t i = 0; i < WORDS; i++) {
      shared_data[i] = i * 7u + job;
    }
    uint32_t expected = 0;
    for (uint32_t i = 0; i < WORDS; i++) {
      expected += shared_data[i] * shared_data[i];
    }
    rp2350_fifo_push((uint32_t)(uintptr_t)sum_squares);
    rp2350_fifo_push(1u);
    sum_squares(0u);
    uint32_t done = 0;
    if (rp2350_fifo_pop_within(&done, 1000000u) && done == DONE && sums[0] + sums[1] == expected) {
      jobs_ok++;
    }
  }
  ok &= check("jobs split over both cores", jobs_ok == JOBS, jobs_ok);

  while (!SIO_SPINLOCK(LOCK)) {
  }
  marker = 0;
  rp2350_fifo_push((uint32_t)(uintptr_t)take_lock);
  rp2350_fifo_push(LOCK);
  count_down(5000u); /* core 1 waits for the lock meanwhile */
  marker = 1;
  SIO_SPINLOCK(LOCK) = 1; /* release */
  uint32_t done = 0;
  ok &= check("spinlock handed over", rp2350_fifo_pop_within(&done, 1000000u) && marker_seen == 1u, marker_seen);
  ok &= check("spinlocks held afterwards", SIO_SPINLOCK_ST == 0u, SIO_SPINLOCK_ST);

  const uint32_t answer = tp_method_execute(COUNT);
  ok &= check("timed call", answer == DONE, answer);

  tp_console_puts(ok ? "two_cores: PASS\n" : "two_cores: FAIL\n");
  return ok ? TP_EXIT_OK : TP_EXIT_FAILURE;
}
