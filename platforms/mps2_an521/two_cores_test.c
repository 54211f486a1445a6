/* Test firmware of the AN521's second core (two_cores.c, tinypte/two_cores_board.h): starts core
 * 1, splits work between both cores the way the runtime's kernels do (core 1 computes one half
 * while core 0 computes the other), and checks every result against core 0's own.
 *
 * Built as is, it prints `two_cores_test: ... PASS` and exits 0. Its failure paths (BUILD.bazel),
 * after the same shared work, post one job that misbehaves:
 *   TP_TWO_CORES_TEST_SILENT  the job parks core 1 for good: the wait must time out, and the
 *                         firmware says so in one line and exits 1;
 *   TP_TWO_CORES_TEST_BUSY    the job loops for ever: the same, while core 1 keeps running;
 *   TP_TWO_CORES_TEST_FAULT   the job faults: core 0's wait reports core 1's fault (exit 2).
 * With TP_TWO_CORES_TEST_ONE_CORE it is a one-core build (cores = 1) and only checks that. */
#include <stdbool.h>
#include <stdint.h>

#include "tinypte/board.h"
#include "tinypte/two_cores_board.h"

#define TP_TEXT(x) #x
#define TP_NUMBER_TEXT(x) TP_TEXT(x)

#if defined(TP_TWO_CORES_TEST_ONE_CORE)
#if TP_BOARD_CORES != 1
#error "a cores = 1 firmware must be compiled with TP_BOARD_CORES=1"
#endif

int main(void) {
  tp_console_puts("two_cores_test: board=");
  tp_console_puts(tp_board_name());
  tp_console_puts(" cores=" TP_NUMBER_TEXT(TP_BOARD_CORES) " PASS\n");
  return TP_EXIT_OK;
}

#else
#if TP_BOARD_CORES != 2
#error "two_cores_test needs a two-core build (TP_BOARD_CORES=2)"
#endif

#define ROWS 64u
#define COLUMNS 32u
#define JOBS 32 /* no suffix: it is printed */

/* One half of a "kernel call": rows [first, first + count) of out, with floats (FPU) and a
 * DSP dual multiply-accumulate (SMLAD), both of which core 1 must have enabled. */
typedef struct {
  uint32_t first, count;
  float scale;
  float *out;
  int32_t *dsp_out;
} half;

static float out[2][ROWS]; /* [0] computed on core 0 alone, [1] split over both cores */
static int32_t dsp_out[2][ROWS];

static uint32_t smlad(uint32_t a, uint32_t b, uint32_t acc) {
  uint32_t result;
  __asm__("smlad %0, %1, %2, %3" : "=r"(result) : "r"(a), "r"(b), "r"(acc));
  return result;
}

static void compute(void *arg) {
  const half *h = arg;
  for (uint32_t r = h->first; r < h->first + h->count; r++) {
    float sum = 0.0f;
    uint32_t acc = 0;
    for (uint32_t c = 1; c <= COLUMNS; c++) {
      sum += h->scale / ((float)(r + 1) * (float)c);
      acc = smlad((r << 16) | c, (c << 16) | (r + 1u), acc);
    }
    h->out[r] = sum;
    h->dsp_out[r] = (int32_t)acc;
  }
}

#if defined(TP_TWO_CORES_TEST_SILENT)
static void misbehave(void *arg) {
  (void)arg;
  for (;;) {
    __asm__ volatile("cpsid i\n\twfi"); /* asleep for good: nothing wakes it */
  }
}
#elif defined(TP_TWO_CORES_TEST_BUSY)
static void misbehave(void *arg) {
  for (volatile uint32_t *spin = arg;;) {
    (*spin)++;
  }
}
#elif defined(TP_TWO_CORES_TEST_FAULT)
static void misbehave(void *arg) {
  (void)arg;
  *(volatile uint32_t *)0xF0000000u = 1u; /* nothing there: a BusFault on core 1 */
}
#endif

static void put_decimal(uint32_t value) {
  char digits[11];
  size_t n = sizeof digits;
  do {
    digits[--n] = (char)('0' + value % 10u);
    value /= 10u;
  } while (value != 0);
  tp_console_write(digits + n, sizeof digits - n);
}

static int fail(const char *what) {
  tp_console_puts("two_cores_test: FAIL ");
  tp_console_puts(what);
  tp_console_puts("\n");
  return TP_EXIT_FAILURE;
}

static int fail_timeout(void) {
  tp_console_puts("two_cores_test: FAIL core 1 did not answer within ");
  put_decimal(TP_BOARD_TWO_CORES_TIMEOUT_US);
  tp_console_puts(" us\n");
  return TP_EXIT_FAILURE;
}

int main(void) {
  tp_console_puts("two_cores_test: board=");
  tp_console_puts(tp_board_name());
  tp_console_puts("\n");
  if (tp_board_two_cores_stack_size() != 0) {
    return fail("core 1's stack has a size before it started");
  }
  if (!tp_board_two_cores_start() || !tp_board_two_cores_start()) {
    return fail("tp_board_two_cores_start: core 1 did not come up");
  }

  const half whole = {0, ROWS, 1.0f, out[0], dsp_out[0]};
  compute((void *)&whole);
  for (uint32_t job = 0; job < (uint32_t)JOBS; job++) {
    const uint32_t split = 1u + job % (ROWS - 1u);
    half second = {split, ROWS - split, 1.0f, out[1], dsp_out[1]};
    const half first = {0, split, 1.0f, out[1], dsp_out[1]};
    for (uint32_t r = 0; r < ROWS; r++) {
      out[1][r] = -1.0f;
      dsp_out[1][r] = -1;
    }
    tp_board_two_cores_post(compute, &second);
    compute((void *)&first);
    if (!tp_board_two_cores_wait()) {
      return fail_timeout();
    }
    for (uint32_t r = 0; r < ROWS; r++) {
      if (out[1][r] != out[0][r] || dsp_out[1][r] != dsp_out[0][r]) {
        tp_console_puts("two_cores_test: row ");
        tp_console_put_hex(r);
        tp_console_puts(" of job ");
        tp_console_put_hex(job);
        tp_console_puts(" differs\n");
        return fail("split results differ from core 0's");
      }
    }
  }
  /* A wait with nothing posted returns at once. */
  if (!tp_board_two_cores_wait()) {
    return fail("tp_board_two_cores_wait without a job");
  }
#if defined(TP_TWO_CORES_TEST_SILENT) || defined(TP_TWO_CORES_TEST_BUSY) || defined(TP_TWO_CORES_TEST_FAULT)
  static uint32_t spins;
  tp_board_two_cores_post(misbehave, &spins);
  if (!tp_board_two_cores_wait()) {
    return fail_timeout();
  }
  return fail("tp_board_two_cores_wait returned true, but core 1 never finished its job");
#else
  const uint32_t used = tp_board_two_cores_stack_used(), size = tp_board_two_cores_stack_size();
  if (used == 0 || used >= size) {
    return fail("core 1's stack high-water mark is not within its reservation");
  }
  tp_console_puts("two_cores_test: jobs=" TP_NUMBER_TEXT(JOBS) " core1_stack=");
  put_decimal(used);
  tp_console_puts("/");
  put_decimal(size);
  tp_console_puts(" PASS\n");
  return TP_EXIT_OK;
#endif
}
#endif
