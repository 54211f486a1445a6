/* Smoke firmware: proves a board's start-up, memory map, FPU set-up, console and exit
 * status all work, by computing values with known answers and checking them on target.
 * Prints one line per check and "smoke: PASS" or "smoke: FAIL", and exits 0 only on PASS.
 */
#include <stdint.h>
#include <string.h>

#include "check_line.h"
#include "tinypte/board.h"

/* .data must arrive initialized from its load image, .bss zeroed. */
static volatile uint32_t initialized_word = 0x5eed1234u;
static volatile uint32_t zeroed_words[64];

static uint32_t crc32(const uint8_t *data, size_t size) {
  uint32_t crc = 0xffffffffu;
  for (size_t i = 0; i < size; ++i) {
    crc ^= data[i];
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

/* Basel series in float, summed from the small end: 1.6439345 (pi^2/6 - 1/1000). */
static float basel_sum(volatile int terms) {
  float sum = 0.0f;
  for (int k = terms; k >= 1; --k) sum += 1.0f / ((float)k * (float)k);
  return sum;
}

static int check(const char *what, int ok, uint32_t got) {
  return check_line("  ", what, ok, got);
}

int main(void) {
  tp_console_puts("smoke: board=");
  tp_console_puts(tp_board_name());
  tp_console_puts("\n");

  int ok = 1;
  static const char check_string[] = "123456789";
  const uint32_t crc = crc32((const uint8_t *)check_string, strlen(check_string));
  ok &= check("crc32(\"123456789\")", crc == 0xcbf43926u, crc);
  ok &= check(".data word", initialized_word == 0x5eed1234u, initialized_word);
  uint32_t bss_or = 0;
  for (size_t i = 0; i < sizeof zeroed_words / sizeof zeroed_words[0]; ++i) bss_or |= zeroed_words[i];
  ok &= check(".bss words OR", bss_or == 0, bss_or);

  const float basel = basel_sum(1000);
  const float expected = 1.6439345f;
  const float error = basel > expected ? basel - expected : expected - basel;
  uint32_t basel_bits;
  memcpy(&basel_bits, &basel, sizeof basel_bits);
  ok &= check("basel(1000) float bits", error < 1e-6f, basel_bits);

  tp_console_puts(ok ? "smoke: PASS\n" : "smoke: FAIL\n");
  return ok ? TP_EXIT_OK : TP_EXIT_FAILURE;
}
