/* On-target check of the int8 matrix product of quantized_linear / quantized_batch_matmul
 * (runtime/kernels/cortex_m/s8_matmul.h): every routine the board's compiler builds
 * (portable C everywhere, DSP on Armv7E-M / Armv8-M, Helium on Armv8.1-M) against a plain
 * scalar reference of the definition, on seeded random products: shapes with every tail of
 * 4, 8 and 16 columns, depths past the DSP path's 256-column chunk, unaligned rows, all
 * offsets, both sum modes, extreme requantization. kernel_test runs the portable routine on
 * the host only; this runs the fast paths under QEMU.
 *
 * Prints
 *     s8_matmul_check: <board>: <cases> cases x <routines> routines, <outputs> outputs checked, 0 mismatches
 * and exits 0 only with no mismatch and at least S8_MATMUL_MIN_CASES cases. */
#include <stdbool.h>
#include <stdint.h>

#include "cortex_m/engines/int8_util.h"
#include "cortex_m/engines/s8_matmul.h"
#include "tinypte/board.h"

#ifndef S8_MATMUL_MIN_CASES
#define S8_MATMUL_MIN_CASES 1
#endif

enum { CASES = 600, MAX_ROWS = 3, MAX_COLS = 37, MAX_DEPTH = 600 };

/* The DSP routine's one-routine path for a row's full blocks (fused4 in s8_matmul.c) takes
 * depth % 4 == 0, a right shift of 1..21, |out offset| <= 256: at least this many cases must
 * meet that with a row of at most 256 columns (widened once), and with a longer one (widened a
 * chunk at a time, 8 blocks at a time: some with more than 8 blocks). */
enum { MIN_FUSED_SHORT = 80, MIN_FUSED_CHUNKED = 45, MIN_FUSED_GROUPS = 6 };
/* The Helium routine's one-loop path (fused_mve) takes lhs offset 0, a right shift, a
 * multiplier other than INT32_MIN and at least one block of 4: at least this many cases. */
enum { MIN_FUSED_MVE = 200 };

typedef void (*routine_fn)(const tp_s8_matmul *, const int8_t *, const int8_t *, const int32_t *, int8_t *);

static const struct {
  const char *name;
  routine_fn fn;
} routines[] = {
    {"portable", tp_s8_matmul_portable},
#if TP_S8_MATMUL_DSP
    {"dsp", tp_s8_matmul_dsp},
#endif
#if TP_S8_MATMUL_MVE
    {"mve", tp_s8_matmul_mve},
#endif
};
enum { ROUTINES = sizeof routines / sizeof routines[0] };

static uint8_t lhs_bytes[MAX_ROWS * MAX_DEPTH + 4];
static uint8_t rhs_bytes[MAX_COLS * MAX_DEPTH + 4];
static int32_t bias[MAX_COLS];
static int8_t want[MAX_ROWS * MAX_COLS], got[MAX_ROWS * MAX_COLS + 1];

static uint32_t rng_state = 20261125u;

static uint32_t next(void) { /* xorshift32 */
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 17;
  rng_state ^= rng_state << 5;
  return rng_state;
}

/* Uniform in [lo, hi]. */
static int32_t between(int32_t lo, int32_t hi) { return lo + (int32_t)(next() % (uint32_t)(hi - lo + 1)); }

/* The definition, one output at a time (s8_matmul.h). */
static void reference(const tp_s8_matmul *p, const int8_t *lhs, const int8_t *rhs, const int32_t *b, int8_t *out) {
  for (uint32_t m = 0; m < p->rows; m++) {
    for (uint32_t n = 0; n < p->cols; n++) {
      const int8_t *x = lhs + m * p->depth, *w = rhs + n * p->depth;
      int64_t total;
      if (p->wide) {
        int64_t s = 0;
        for (uint32_t k = 0; k < p->depth; k++) {
          s += (int64_t)x[k] * ((int64_t)w[k] + p->rhs_offset);
        }
        total = s + (b != NULL ? b[n] : 0);
      } else {
        uint32_t s = 0;
        for (uint32_t k = 0; k < p->depth; k++) {
          s += (uint32_t)(x[k] + p->lhs_offset) * (uint32_t)(w[k] + p->rhs_offset);
        }
        s += b != NULL ? (uint32_t)b[n] : 0u;
        total = (int32_t)s;
      }
      const int32_t r = tp_requantize_wide(total, p->multiplier, p->shift);
      out[m * p->cols + n] =
          (int8_t)tp_clamp_i32((int32_t)((uint32_t)r + (uint32_t)p->out_offset), p->act_min, p->act_max);
    }
  }
}

static void put_uint(uint32_t v) {
  char text[11];
  char *c = text + sizeof text - 1;
  *c = '\0';
  do {
    *--c = (char)('0' + v % 10u);
    v /= 10u;
  } while (v != 0u);
  tp_console_puts(c);
}

/* A random product: returns its description and fills the inputs. */
static void draw(tp_s8_matmul *p, uint32_t i) {
  static const uint16_t depths[] = {0,  1,  2,  3,  4,   5,   7,   8,   9,   15,  16,  17,
                                    31, 32, 33, 63, 64, 255, 256, 257, 260, 300, 512, 513};
  p->rows = (uint32_t)between(1, MAX_ROWS);
  const uint32_t wide_cols = next() % 4; /* 1 in 4: more than 8 blocks of 4; 1 in 4: 12 or more */
  p->cols = (uint32_t)(wide_cols == 0 ? between(33, MAX_COLS) : between(wide_cols == 1 ? 12 : 1, wide_cols == 1 ? MAX_COLS : 11));
  p->depth = i % 3 == 0 ? (uint32_t)between(0, MAX_DEPTH) : depths[next() % (sizeof depths / sizeof depths[0])];
  p->wide = next() % 4 == 0;
  p->lhs_offset = p->wide ? 0 : (next() % 3 == 0 ? 0 : between(-255, 255));
  p->rhs_offset = next() % 2 == 0 ? 0 : (p->wide ? (int32_t)next() : between(-255, 255));
  p->multiplier = next() % 8 == 0 ? (int32_t)next() : between(1 << 30, INT32_MAX);
  p->shift = next() % 8 == 0 ? between(-31, 30) : between(-20, 0);
  p->out_offset = next() % 8 == 0 ? (int32_t)next() : between(-128, 127);
  p->act_min = between(-128, 127);
  p->act_max = between(p->act_min, 127);
  if (next() % 2 == 0) {
    p->act_min = -128, p->act_max = 127;
  }
}

int main(void) {
  uint32_t outputs = 0, mismatches = 0, cases = 0, fused_short = 0, fused_chunked = 0, fused_groups = 0,
           fused_mve = 0;
  for (uint32_t i = 0; i < CASES; i++) {
    tp_s8_matmul p;
    draw(&p, i);
    const int8_t *lhs = (const int8_t *)lhs_bytes + next() % 4; /* any alignment */
    const int8_t *rhs = (const int8_t *)rhs_bytes + next() % 4;
    for (uint32_t k = 0; k < sizeof lhs_bytes; k++) {
      lhs_bytes[k] = (uint8_t)next();
    }
    for (uint32_t k = 0; k < sizeof rhs_bytes; k++) {
      rhs_bytes[k] = (uint8_t)(i % 5 == 0 ? (next() % 2 ? 0x80 : 0x7f) : next()); /* some extremes */
    }
    const bool has_bias = next() % 4 != 0;
    for (uint32_t n = 0; n < MAX_COLS; n++) {
      bias[n] = next() % 8 == 0 ? (int32_t)next() : between(-100000, 100000);
    }
    reference(&p, lhs, rhs, has_bias ? bias : NULL, want);
    const uint32_t count = p.rows * p.cols;
    for (uint32_t r = 0; r < ROUTINES; r++) {
      got[count] = 0x55; /* writes stop at the out's end */
      routines[r].fn(&p, lhs, rhs, has_bias ? bias : NULL, got);
      for (uint32_t o = 0; o <= count; o++) {
        if (o < count ? got[o] != want[o] : got[o] != 0x55) {
          if (mismatches++ < 10) {
            tp_console_puts("s8_matmul_check: MISMATCH ");
            tp_console_puts(routines[r].name);
            tp_console_puts(" case ");
            put_uint(i);
            tp_console_puts(" output ");
            put_uint(o);
            tp_console_puts("\n");
          }
          break;
        }
      }
      outputs += count;
    }
    if (p.depth % 4 == 0 && p.depth >= 4 && p.cols >= 4 && p.shift <= -1 && p.shift >= -21 && p.out_offset >= -256 &&
        p.out_offset <= 256) {
      fused_short += p.depth <= 256;
      fused_chunked += p.depth > 256;
      fused_groups += p.depth > 256 && p.cols >= 36;
    }
    fused_mve += p.lhs_offset == 0 && p.depth > 0 && p.cols >= 4 && p.shift <= -1 && p.shift >= -31 &&
                 p.multiplier != INT32_MIN;
    cases++;
  }
  tp_console_puts("s8_matmul_check: ");
  tp_console_puts(tp_board_name());
  tp_console_puts(": ");
  put_uint(cases);
  tp_console_puts(" cases x ");
  put_uint(ROUTINES);
  tp_console_puts(" routines (");
  for (uint32_t r = 0; r < ROUTINES; r++) {
    tp_console_puts(r > 0 ? " " : "");
    tp_console_puts(routines[r].name);
  }
  tp_console_puts("), ");
  put_uint(outputs);
  tp_console_puts(" outputs checked, ");
  put_uint(mismatches);
  tp_console_puts(" mismatches\n");
#if TP_S8_MATMUL_DSP
  tp_console_puts("s8_matmul_check: dsp fused path: ");
  put_uint(fused_short);
  tp_console_puts(" cases with rows of <= 256 columns, ");
  put_uint(fused_chunked);
  tp_console_puts(" longer (");
  put_uint(fused_groups);
  tp_console_puts(" of more than 8 blocks)\n");
  if (fused_short < MIN_FUSED_SHORT || fused_chunked < MIN_FUSED_CHUNKED || fused_groups < MIN_FUSED_GROUPS) {
    tp_console_puts("s8_matmul_check: FAIL: fewer fused-path cases than the minimum\n");
    return 1;
  }
#else
  (void)fused_short, (void)fused_chunked, (void)fused_groups;
#endif
#if TP_S8_MATMUL_MVE
  tp_console_puts("s8_matmul_check: mve fused path: ");
  put_uint(fused_mve);
  tp_console_puts(" cases\n");
  if (fused_mve < MIN_FUSED_MVE) {
    tp_console_puts("s8_matmul_check: FAIL: fewer fused-path cases than the minimum\n");
    return 1;
  }
#else
  (void)fused_mve;
#endif
  if (cases < S8_MATMUL_MIN_CASES) {
    tp_console_puts("s8_matmul_check: FAIL: fewer cases than the minimum\n");
    return 1;
  }
  return mismatches == 0 ? 0 : 1;
}
