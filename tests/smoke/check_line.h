/* One printed line per on-target check: "<prefix>ok   <what> = 0x<got>" or "<prefix>FAIL ...",
 * the form the smoke firmware and the RP2350 model's two-core tests print and their tests'
 * expected output matches. Returns `ok`, so checks chain as `ok &= check_line(...)`. */
#ifndef TINYPTE_TESTS_SMOKE_CHECK_LINE_H
#define TINYPTE_TESTS_SMOKE_CHECK_LINE_H

#include <stdint.h>

#include "tinypte/board.h"

static inline int check_line(const char *prefix, const char *what, int ok, uint32_t got) {
  tp_console_puts(prefix);
  tp_console_puts(ok ? "ok   " : "FAIL ");
  tp_console_puts(what);
  tp_console_puts(" = ");
  tp_console_put_hex(got);
  tp_console_puts("\n");
  return ok;
}

#endif /* TINYPTE_TESTS_SMOKE_CHECK_LINE_H */
