/* The consumer's Cortex-M start-up code (mps2-an505, mps3-an547): a vector table, a reset handler
 * that turns the FPU on, copies .data and clears .bss before main() (console and exit:
 * console_semihost.c). */
#include <stdint.h>

#include "console.h"

extern int main(void);
extern uint32_t data_start[], data_end[], data_load[], bss_start[], bss_end[], stack_top[];

void reset_handler(void) {
  volatile uint32_t *cpacr = (volatile uint32_t *)0xE000ED88u;
  *cpacr |= 0xFu << 20; /* CP10 and CP11: full access */
  __asm__ volatile("dsb\n isb" ::: "memory");
  for (uint32_t *from = data_load, *to = data_start; to < data_end;) {
    *to++ = *from++;
  }
  for (uint32_t *at = bss_start; at < bss_end;) {
    *at++ = 0;
  }
  console_exit(main());
}

static void fault_handler(void) {
  console_write("consumer: fault\n");
  console_exit(1);
}

__attribute__((section(".vectors"), used)) static const void *const vectors[16] = {
    stack_top,     (const void *)reset_handler, (const void *)fault_handler, (const void *)fault_handler,
    (const void *)fault_handler, (const void *)fault_handler, (const void *)fault_handler,
};
