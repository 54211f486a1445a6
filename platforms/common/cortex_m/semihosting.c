/* Semihosting call for Arm M-profile: BKPT 0xAB with the operation in r0, the
 * argument in r1 and the result in r0 (Arm semihosting specification, 32-bit). */
#include "tinypte/semihosting.h"

uintptr_t tp_semihost_call(uintptr_t op, const void *arg) {
  register uintptr_t r0 __asm__("r0") = op;
  register const void *r1 __asm__("r1") = arg;
  __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
  return r0;
}
