/* Arm semihosting calls, as QEMU implements them for Arm (BKPT 0xAB) and RISC-V
 * (the EBREAK sequence). Only the operations tinypte's consoles use. */
#ifndef TINYPTE_SEMIHOSTING_H
#define TINYPTE_SEMIHOSTING_H

#include <stdint.h>

enum {
  TP_SEMIHOST_SYS_OPEN = 0x01,         /* open a host file; ":tt" is the console */
  TP_SEMIHOST_SYS_WRITE0 = 0x04,       /* write a NUL-terminated string */
  TP_SEMIHOST_SYS_READ = 0x06,         /* read from a handle: returns the bytes NOT read */
  TP_SEMIHOST_SYS_EXIT_EXTENDED = 0x20 /* exit with (reason, status) */
};

/* ADP_Stopped_ApplicationExit: the reason code for a normal program exit. */
#define TP_SEMIHOST_APPLICATION_EXIT 0x20026u

/** Perform semihosting operation `op` with argument `arg`; returns the host's result. */
uintptr_t tp_semihost_call(uintptr_t op, const void *arg);

#endif /* TINYPTE_SEMIHOSTING_H */
