/* Cortex-M vector table, reset handler and fault reporting (Armv7-M, Armv8-M).
 *
 * The table sits at the start of the flash region (section .tp_vectors, first in
 * firmware.ld.tpl), where QEMU's M-profile machines and the RP2350 boot ROM read the
 * initial stack pointer and reset vector. Register addresses: Armv8-M ARM (DDI0553),
 * System Control Block (B11.2): CPACR 0xE000ED88, CCR 0xE000ED14, CFSR 0xE000ED28,
 * HFSR 0xE000ED2C, MMFAR 0xE000ED34, BFAR 0xE000ED38.
 */
#include <stdint.h>

#include "tinypte/board.h"

#define TP_REG(addr) (*(volatile uint32_t *)(addr))
#define TP_SCB_CPACR TP_REG(0xE000ED88u)
#define TP_SCB_CCR TP_REG(0xE000ED14u)
#define TP_SCB_CFSR TP_REG(0xE000ED28u)
#define TP_SCB_HFSR TP_REG(0xE000ED2Cu)
#define TP_SCB_MMFAR TP_REG(0xE000ED34u)
#define TP_SCB_BFAR TP_REG(0xE000ED38u)

#define TP_CCR_DIV_0_TRP (1u << 4) /* integer division by zero faults, not silent 0 */

extern uint32_t __tp_stack_top[], __tp_stack_limit[];

void tp_reset_handler(void);
void tp_fault_handler(void);

void tp_reset_handler(void) {
#if defined(__ARM_FP) || defined(__ARM_FEATURE_MVE)
  /* CP10/CP11 full access before any floating-point or MVE instruction. */
  TP_SCB_CPACR |= 0xFu << 20;
  __asm__ volatile("dsb\n\tisb" ::: "memory");
#endif
#if defined(__ARM_ARCH_8M_MAIN__) || defined(__ARM_ARCH_8_1M_MAIN__)
  /* Stack overflow becomes a UsageFault (STKOF) instead of silent corruption. */
  __asm__ volatile("msr msplim, %0" ::"r"(__tp_stack_limit));
#endif
  TP_SCB_CCR |= TP_CCR_DIV_0_TRP;
  tp_start();
}

void tp_fault_handler(void) {
  static const char *const names[] = {"CFSR", "HFSR", "MMFAR", "BFAR"};
  const uint32_t words[] = {TP_SCB_CFSR, TP_SCB_HFSR, TP_SCB_MMFAR, TP_SCB_BFAR};
  tp_board_fault("CPU fault (HardFault/MemManage/BusFault/UsageFault)", words, names, 4);
}

typedef void (*tp_vector)(void);

/* Exceptions 0-15: initial SP, Reset, NMI, HardFault, MemManage, BusFault, UsageFault,
 * SecureFault, 3 reserved, SVCall, DebugMonitor, reserved, PendSV, SysTick. */
__attribute__((section(".tp_vectors"), used)) const tp_vector tp_vector_table[16] = {
    (tp_vector)(uintptr_t)__tp_stack_top,
    tp_reset_handler,
    tp_fault_handler,
    tp_fault_handler,
    tp_fault_handler,
    tp_fault_handler,
    tp_fault_handler,
    tp_fault_handler,
    0,
    0,
    0,
    tp_fault_handler,
    tp_fault_handler,
    0,
    tp_fault_handler,
    tp_fault_handler,
};
