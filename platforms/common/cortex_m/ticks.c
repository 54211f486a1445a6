/* Timing ticks on Cortex-M: the SysTick counter, clocked by the processor clock
 * (Armv7-M/Armv8-M Architecture Reference Manual, "The system timer, SysTick"). It counts
 * down and wraps at 24 bits; tp_board_ticks() turns that into an up-counter. Under QEMU
 * the clock is virtual (from host time, or instruction counts with -icount). */
#include "tinypte/board.h"

#define TP_SYST_CSR (*(volatile uint32_t *)0xE000E010u) /* control and status */
#define TP_SYST_RVR (*(volatile uint32_t *)0xE000E014u) /* reload value */
#define TP_SYST_CVR (*(volatile uint32_t *)0xE000E018u) /* current value */
#define TP_SYST_CSR_ENABLE (1u << 0)
#define TP_SYST_CSR_CLKSOURCE_CPU (1u << 2)
#define TP_SYST_MAX 0x00FFFFFFu

uint32_t tp_board_ticks(void) {
  if ((TP_SYST_CSR & TP_SYST_CSR_ENABLE) == 0) {
    TP_SYST_RVR = TP_SYST_MAX;
    TP_SYST_CVR = 0; /* any write clears it; it reloads from RVR on the next clock */
    TP_SYST_CSR = TP_SYST_CSR_ENABLE | TP_SYST_CSR_CLKSOURCE_CPU;
  }
  return TP_SYST_MAX - (TP_SYST_CVR & TP_SYST_MAX);
}

uint32_t tp_board_ticks_mask(void) { return TP_SYST_MAX; }

const char *tp_board_ticks_source(void) { return "systick"; }
