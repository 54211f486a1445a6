/* The consumer's RISC-V start-up code (QEMU virt, machine mode): sets the stack and global
 * pointers and a trap handler, copies .data and clears .bss before main() (console and exit:
 * console_semihost.c). */
#include <stdint.h>

#include "console.h"

extern int main(void);
extern uint32_t data_start[], data_end[], data_load[], bss_start[], bss_end[];
void reset_handler(void);

/* The first instructions: stack and global pointers, then C. */
__asm__(
    ".section .text.reset_entry, \"ax\"\n"
    ".global reset_entry\n"
    "reset_entry:\n"
    ".option push\n"
    ".option norelax\n"
    "  la gp, __global_pointer$\n"
    ".option pop\n"
    "  la sp, stack_top\n"
    "  j reset_handler\n");

__attribute__((aligned(4))) static void trap_handler(void) {
  console_write("consumer: trap\n");
  console_exit(1);
}

void reset_handler(void) {
  /* GCC 12's rv32imac leaves Zicsr out of -march: name it for this one instruction. */
  __asm__ volatile(".option push\n .option arch, +zicsr\n csrw mtvec, %0\n .option pop" ::"r"((uintptr_t)trap_handler));
  for (uint32_t *from = data_load, *to = data_start; to < data_end;) {
    *to++ = *from++;
  }
  for (uint32_t *at = bss_start; at < bss_end;) {
    *at++ = 0;
  }
  console_exit(main());
}
