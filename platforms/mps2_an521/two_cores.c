/* mps2_an521's second core (tinypte/board.h, "Two cores"): CPU 1 of the SSE-200, a second
 * Cortex-M33 that QEMU's mps2-an521 holds at reset (CPUWAIT) until core 0 lets it go.
 *
 * Start (Arm CoreLink SSE-200 TRM, System Control registers): core 0 paints core 1's stack,
 * writes the address of core 1's own vector table (core1_vectors: SP = top of core1_stack,
 * reset = core1_reset) to INITSVTOR1 and clears CPUWAIT bit 1; core 1 comes out of reset in
 * Secure state like core 0, with that table as its VTOR. Its reset handler does what
 * platforms/common/cortex_m/vectors.c does for core 0, since these registers are per core:
 * FPU access (CPACR), stack limit (MSPLIM, so an overflow is a fault, not corruption),
 * division-by-zero trap (CCR). Then it says it is ready and waits for jobs. Core 1 never uses
 * the console or semihosting.
 *
 * Jobs go through `mailbox`, in RAM both cores share (no caches on this machine; DMB orders
 * each side's stores before the word that hands them over): core 0 writes the job and its
 * argument, then counts it in `posted`; core 1 runs it and copies `posted` to `done`. Each
 * side then raises the other's MHU0 interrupt (SSE-200 Message Handling Unit 0: interrupt 6
 * of the CPU it targets) to wake it. A waiting core sleeps in WFI with PRIMASK set: the
 * interrupt ends the WFI but is never taken, so neither core needs handlers for it. (WFE and
 * SEV would not do: QEMU 7.2 treats WFE as a yield, never as a sleep, so a polling core would
 * burn the virtual time -icount counts, and a dead core 1 would take the whole timeout in
 * host time.)
 *
 * Timeout: core 0 waits at most TP_BOARD_TWO_CORES_TIMEOUT_US, counted in periods of the SSE-200's
 * TIMER0 (CMSDK APB timer, clocked by the 20 MHz system clock, SysTick's clock too), whose
 * interrupt also wakes the WFI: a core 1 that never answers ends the wait with false after
 * that time (to within one period). Under -icount virtual time advances with the instructions
 * of both cores, and jumps when both sleep, so a sleeping dead core 1 times out at once in
 * host time. A fault on core 1 is recorded here and reported by core 0's next wait with
 * tp_board_fault (exit status 2), like a fault of core 0.
 */
#include <stdbool.h>
#include <stdint.h>

#include "tinypte/board.h"
#include "tinypte/painted_stack.h"
#include "tinypte/two_cores_board.h"

#define TP_REG(addr) (*(volatile uint32_t *)(addr))

/* SSE-200 System Control (Secure only). */
#define SYSCTL_INITSVTOR1 TP_REG(0x50021114u) /* core 1's Secure VTOR out of reset */
#define SYSCTL_CPUWAIT TP_REG(0x50021118u)    /* bit n holds core n in reset */
#define CPUWAIT_CORE1 (1u << 1)

/* MHU0, Secure alias of 0x40003000: CPUnINTR_SET raises interrupt 6 of core n until CLR. */
#define MHU0_CPU0INTR_SET TP_REG(0x50003004u)
#define MHU0_CPU0INTR_CLR TP_REG(0x50003008u)
#define MHU0_CPU1INTR_SET TP_REG(0x50003014u)
#define MHU0_CPU1INTR_CLR TP_REG(0x50003018u)
#define MHU0_IRQ 6u

/* TIMER0 (CMSDK APB timer), Secure alias of 0x40000000: counts the 20 MHz system clock down
 * from RELOAD; each time it reaches 0 it sets INTSTATUS (interrupt 3 with CTRL.IRQEN). */
#define TIMER0_CTRL TP_REG(0x50000000u)
#define TIMER0_VALUE TP_REG(0x50000004u)
#define TIMER0_RELOAD TP_REG(0x50000008u)
#define TIMER0_INT TP_REG(0x5000000Cu) /* read: INTSTATUS; write 1: INTCLEAR */
#define TIMER0_CTRL_ENABLE (1u << 0)
#define TIMER0_CTRL_IRQEN (1u << 3)
#define TIMER0_IRQ 3u
#define SYSCLK_TICKS_PER_US 20u
#define TIMEOUT_PERIOD_US 100000u /* 100 ms: the timeout's resolution */
#define TIMEOUT_PERIODS (TP_BOARD_TWO_CORES_TIMEOUT_US / TIMEOUT_PERIOD_US)

/* Each core's own System Control Space (Armv8-M ARM, B11). */
#define NVIC_ISER0 TP_REG(0xE000E100u)
#define NVIC_ICER0 TP_REG(0xE000E180u)
#define NVIC_ICPR0 TP_REG(0xE000E280u)
#define SCB_CPACR TP_REG(0xE000ED88u)
#define SCB_CCR TP_REG(0xE000ED14u)
#define SCB_CFSR TP_REG(0xE000ED28u)
#define SCB_HFSR TP_REG(0xE000ED2Cu)
#define SCB_MMFAR TP_REG(0xE000ED34u)
#define SCB_BFAR TP_REG(0xE000ED38u)
#define CCR_DIV_0_TRP (1u << 4)

/* Core 1 runs halves of kernel calls only (no console, no interrupts taken): 4 KiB holds their
 * frames with the app's margin (the summary line reports the high-water mark), as on the Pico. */
#define CORE1_STACK_BYTES 4096 /* no suffix: tp_core1_fault's assembly uses it too */
#define CORE1_STACK_WORDS (CORE1_STACK_BYTES / 4u)
#define TP_TEXT(x) #x
#define TP_NUMBER_TEXT(x) TP_TEXT(x)

enum { CORE1_OFF = 0, CORE1_READY = 0x52454459u /* "REDY" */, CORE1_FAULT = 0x464c5421u /* "FLT!" */ };

static uint32_t core1_stack[CORE1_STACK_WORDS] __attribute__((aligned(8)));

/* Shared by both cores; .bss, so zero (CORE1_OFF, nothing posted) before core 1 starts. */
static struct {
  volatile uint32_t state;  /* core 1: CORE1_OFF, CORE1_READY or CORE1_FAULT */
  volatile uint32_t posted; /* core 0: jobs posted so far */
  volatile uint32_t done;   /* core 1: jobs finished so far */
  tp_two_cores_job volatile job;
  void *volatile arg;
  volatile uint32_t fault[4]; /* core 1's CFSR, HFSR, MMFAR, BFAR when it faulted */
} mailbox;

static bool core1_started;

static inline void dmb(void) { __asm__ volatile("dmb" ::: "memory"); }
static inline void dsb(void) { __asm__ volatile("dsb" ::: "memory"); }

/* --- Core 1 --- */

void tp_core1_reset(void);
void tp_core1_fault(void);

/* Core 1's exceptions: reset, and every fault into tp_core1_fault. Interrupts are never taken
 * (PRIMASK), but their slots point there too. 128-byte aligned: VTOR ignores bits [6:0]. */
typedef void (*tp_vector)(void);
#define F tp_core1_fault
__attribute__((aligned(128))) static const tp_vector core1_vectors[32] = {
    (tp_vector)(uintptr_t)(core1_stack + CORE1_STACK_WORDS),
    tp_core1_reset,
    F, F, F, F, F, F, 0, 0, 0, F, F, 0, F, F,                 /* NMI .. SysTick */
    F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F,           /* interrupts 0-15 */
};
#undef F

__attribute__((noreturn)) void tp_core1_reset(void) {
#if defined(__ARM_FP)
  SCB_CPACR |= 0xFu << 20; /* CP10/CP11 full access: kernel routines use the FPU */
  __asm__ volatile("dsb\n\tisb" ::: "memory");
#endif
  __asm__ volatile("msr msplim, %0" ::"r"(core1_stack));
  SCB_CCR |= CCR_DIV_0_TRP;
  __asm__ volatile("cpsid i" ::: "memory"); /* interrupts only end WFI */
  NVIC_ISER0 = 1u << MHU0_IRQ;
  mailbox.state = CORE1_READY;
  dsb();
  MHU0_CPU0INTR_SET = 1u;
  uint32_t finished = 0;
  for (;;) {
    /* Clear the wake-up before looking: a post after the look raises it again, so WFI ends. */
    MHU0_CPU1INTR_CLR = 1u;
    NVIC_ICPR0 = 1u << MHU0_IRQ;
    dsb();
    if (mailbox.posted == finished) {
      __asm__ volatile("wfi");
      continue;
    }
    dmb();
    mailbox.job(mailbox.arg);
    finished++;
    dmb();
    mailbox.done = finished;
    dsb();
    MHU0_CPU0INTR_SET = 1u;
  }
}

/* Records the fault for core 0 and parks core 1. On its own stack again: after a stack
 * overflow (MSPLIM) there is no room below. */
__attribute__((noreturn, used)) static void core1_record_fault(void) {
  mailbox.fault[0] = SCB_CFSR;
  mailbox.fault[1] = SCB_HFSR;
  mailbox.fault[2] = SCB_MMFAR;
  mailbox.fault[3] = SCB_BFAR;
  dmb();
  mailbox.state = CORE1_FAULT;
  dsb();
  MHU0_CPU0INTR_SET = 1u;
  for (;;) {
    __asm__ volatile("wfi");
  }
}

__attribute__((naked)) void tp_core1_fault(void) {
  __asm__ volatile(
      "ldr r0, =core1_stack + " TP_NUMBER_TEXT(CORE1_STACK_BYTES) "\n\t"
      "msr msp, r0\n\t"
      "b core1_record_fault");
}

/* --- Core 0 --- */

static bool core1_ready(void) { return mailbox.state == CORE1_READY; }

static bool job_done(void) { return mailbox.done == mailbox.posted; }

/* Sleeps until `answered()` or the timeout (false); reports a fault of core 1 (no return). */
static bool wait_for_core1(bool (*answered)(void)) {
  uint32_t primask;
  __asm__ volatile("mrs %0, primask\n\tcpsid i" : "=r"(primask)::"memory");
  TIMER0_CTRL = 0;
  TIMER0_RELOAD = TIMEOUT_PERIOD_US * SYSCLK_TICKS_PER_US;
  TIMER0_VALUE = TIMEOUT_PERIOD_US * SYSCLK_TICKS_PER_US;
  TIMER0_INT = 1u;
  TIMER0_CTRL = TIMER0_CTRL_ENABLE | TIMER0_CTRL_IRQEN;
  NVIC_ISER0 = (1u << MHU0_IRQ) | (1u << TIMER0_IRQ);
  uint32_t periods = 0;
  bool ok;
  for (;;) {
    MHU0_CPU0INTR_CLR = 1u;
    NVIC_ICPR0 = 1u << MHU0_IRQ;
    dsb();
    if (answered()) {
      ok = true;
      break;
    }
    if (mailbox.state == CORE1_FAULT) {
      uint32_t words[4];
      for (int i = 0; i < 4; i++) words[i] = mailbox.fault[i];
      static const char *const names[] = {"CFSR", "HFSR", "MMFAR", "BFAR"};
      tp_board_fault("CPU fault on core 1 (HardFault/MemManage/BusFault/UsageFault)", words, names, 4);
    }
    if (TIMER0_INT) {
      TIMER0_INT = 1u;
      NVIC_ICPR0 = 1u << TIMER0_IRQ;
      if (++periods >= TIMEOUT_PERIODS) {
        ok = false;
        break;
      }
      continue;
    }
    __asm__ volatile("wfi");
  }
  TIMER0_CTRL = 0;
  TIMER0_INT = 1u;
  NVIC_ICER0 = (1u << MHU0_IRQ) | (1u << TIMER0_IRQ);
  MHU0_CPU0INTR_CLR = 1u;
  dsb();
  NVIC_ICPR0 = (1u << MHU0_IRQ) | (1u << TIMER0_IRQ);
  __asm__ volatile("dsb\n\tisb\n\tmsr primask, %0" ::"r"(primask) : "memory");
  dmb();
  return ok;
}

bool tp_board_two_cores_start(void) {
  if (core1_started) {
    return true;
  }
  tp_stack_paint(core1_stack, CORE1_STACK_WORDS);
  dsb();
  SYSCTL_INITSVTOR1 = (uint32_t)(uintptr_t)core1_vectors;
  SYSCTL_CPUWAIT &= ~CPUWAIT_CORE1;
  core1_started = wait_for_core1(core1_ready);
  return core1_started;
}

void tp_board_two_cores_post(tp_two_cores_job job, void *arg) {
  mailbox.job = job;
  mailbox.arg = arg;
  dmb();
  mailbox.posted = mailbox.posted + 1u;
  dsb();
  MHU0_CPU1INTR_SET = 1u;
}

bool tp_board_two_cores_wait(void) { return core1_started && wait_for_core1(job_done); }

uint32_t tp_board_two_cores_stack_size(void) { return core1_started ? (uint32_t)sizeof core1_stack : 0u; }

uint32_t tp_board_two_cores_stack_used(void) {
  if (!core1_started) {
    return 0;
  }
  return tp_stack_used(core1_stack, CORE1_STACK_WORDS);
}
