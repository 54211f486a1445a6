/* Semihosting call for RISC-V: the uncompressed `slli x0,x0,0x1f; ebreak; srai x0,x0,7`
 * sequence, aligned so it does not straddle a page (RISC-V semihosting specification),
 * with the operation in a0, the argument in a1 and the result in a0. */
#include "tinypte/semihosting.h"

uintptr_t tp_semihost_call(uintptr_t op, const void *arg) {
  register uintptr_t a0 __asm__("a0") = op;
  register const void *a1 __asm__("a1") = arg;
  __asm__ volatile(
      ".option push\n\t"
      ".option norvc\n\t"
      ".balign 16\n\t"
      "slli x0, x0, 0x1f\n\t"
      "ebreak\n\t"
      "srai x0, x0, 7\n\t"
      ".option pop"
      : "+r"(a0)
      : "r"(a1)
      : "memory");
  return a0;
}
