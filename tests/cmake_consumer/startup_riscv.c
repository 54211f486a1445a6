/* The consumer's RISC-V start-up code (QEMU virt, machine mode): sets the stack and global
 * pointers and a trap handler, copies .data and clears .bss before main(), and uses semihosting
 * for the console and the exit status. */
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

/* One semihosting call: the three-instruction sequence QEMU recognises, never compressed. */
static int32_t semihost(uint32_t op, const void *arg) {
  register uint32_t a0 __asm__("a0") = op;
  register const void *a1 __asm__("a1") = arg;
  __asm__ volatile(
      ".option push\n .option norvc\n .balign 16\n"
      " slli x0, x0, 0x1f\n ebreak\n srai x0, x0, 7\n"
      ".option pop\n"
      : "+r"(a0)
      : "r"(a1)
      : "memory");
  return (int32_t)a0;
}

void console_write(const char *text) { (void)semihost(0x04u, text); /* SYS_WRITE0 */ }

void console_exit(int status) {
  /* SYS_EXIT: ADP_Stopped_ApplicationExit (QEMU exits 0), else RunTimeErrorUnknown (exits 1). */
  (void)semihost(0x18u, (const void *)(uintptr_t)(status == 0 ? 0x20026u : 0x20023u));
  for (;;) {
  }
}

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
