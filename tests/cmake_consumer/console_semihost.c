/* The consumer's console and exit status through semihosting, with picolibc's own semihosting
 * library (semihost.h, linked as -lsemihost): the same on every CPU the consumer runs on. */
#include <semihost.h>

#include "console.h"

void console_write(const char *text) { sys_semihost_write0(text); }

void console_exit(int status) {
  /* QEMU exits 0 on an application exit, 1 on a run-time error. */
  sys_semihost_exit(status == 0 ? ADP_Stopped_ApplicationExit : ADP_Stopped_RunTimeErrorUnknown, 0);
}
